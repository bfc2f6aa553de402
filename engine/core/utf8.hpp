#pragma once
// UTF-8 checking for text read from files and the command line: YAML is
// Unicode text, and JSON output (nlohmann::json) refuses strings that are
// not valid UTF-8, so invalid text is refused where it is read, with its
// position, instead of failing later far from its cause.
#include <cstddef>
#include <string_view>

namespace vedette {

// The offset of the first byte that does not belong to a well-formed UTF-8
// character (RFC 3629: no overlong forms, no surrogates U+D800..U+DFFF,
// nothing above U+10FFFF), or std::string_view::npos when all is valid.
constexpr std::size_t utf8_invalid_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c == 0xED) { len = 3; hi = 0x9F; }  // no surrogates
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }  // up to U+10FFFF
    else return i;
    if (i + len > s.size()) return i;
    const auto c1 = static_cast<unsigned char>(s[i + 1]);
    if (c1 < lo || c1 > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

constexpr bool valid_utf8(std::string_view s) { return utf8_invalid_at(s) == std::string_view::npos; }

}  // namespace vedette
