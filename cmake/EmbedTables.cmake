# Writes OUT: a C++ file holding each tables/NAME.yaml as a string, looked up
# by vedette::builtin_table(NAME). Run at build time by engine/CMakeLists.txt.
set(body "#include \"engine/core/builtin_tables.hpp\"\n#include <string_view>\nnamespace vedette {\nnamespace {\n")
set(lookup "")
foreach(name IN LISTS NAMES)
  file(READ ${DIR}/${name}.yaml text)
  string(MAKE_C_IDENTIFIER ${name} id)
  set(body "${body}constexpr std::string_view k_${id} = R\"vedette_yaml(${text})vedette_yaml\";\n")
  set(lookup "${lookup}  if (name == \"${name}\") return k_${id};\n")
endforeach()
set(body "${body}}  // namespace\nstd::optional<std::string_view> builtin_table(std::string_view name) {\n${lookup}  return std::nullopt;\n}\n}  // namespace vedette\n")
file(WRITE ${OUT}.tmp "${body}")
file(RENAME ${OUT}.tmp ${OUT})
