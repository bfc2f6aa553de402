#pragma once
// The rulesets compiled into the binary from tables/*.yaml, so `vedette`
// works from any folder. A file says `extends: builtin:default` to use one.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vedette {
std::optional<std::string_view> builtin_table(std::string_view name);
// Every NAME builtin_table knows, in build order.
std::vector<std::string> builtin_table_names();
}
