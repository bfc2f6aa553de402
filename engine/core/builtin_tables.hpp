#pragma once
// The rulesets compiled into the binary from tables/*.yaml, so `vedette`
// works from any folder. A file says `extends: builtin:default` to use one.
#include <optional>
#include <string_view>

namespace vedette {
std::optional<std::string_view> builtin_table(std::string_view name);
}
