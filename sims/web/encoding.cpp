#include "sims/web/encoding.hpp"

#include <zlib.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "engine/core/content_hash.hpp"

namespace vedette::web {

std::string gzip(std::string_view data) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: cannot start gzip");
  std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, deflateEnd);
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("zlib: gzip failed");
  out.resize(z.total_out);
  return out;
}

bool accepts_gzip(std::string_view v) {
  // A list of codings, each perhaps with ";q=..." (RFC 9110 12.5.3).
  while (!v.empty()) {
    const auto comma = v.find(',');
    std::string_view item = v.substr(0, comma);
    v = comma == std::string_view::npos ? std::string_view{} : v.substr(comma + 1);
    std::string coding, params;
    const auto semi = item.find(';');
    for (char c : item.substr(0, semi))
      if (!std::isspace(static_cast<unsigned char>(c))) coding += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (semi != std::string_view::npos)
      for (char c : item.substr(semi + 1))
        if (!std::isspace(static_cast<unsigned char>(c))) params += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (coding != "gzip" && coding != "x-gzip" && coding != "*") continue;
    // q=0 refuses it.
    if (const auto q = params.find("q="); q != std::string::npos) {
      const std::string weight = params.substr(q + 2, params.find(';', q + 2) - (q + 2));
      char* end = nullptr;
      const double w = std::strtod(weight.c_str(), &end);
      if (end != weight.c_str() && w <= 0) continue;
    }
    return true;
  }
  return false;
}

const EncodedAsset& encoded_asset(std::string_view path, std::string_view body) {
  static std::mutex mutex;
  static std::map<std::string, EncodedAsset, std::less<>> kept;
  std::lock_guard lock(mutex);
  // An asset's body is fixed in the binary: made once, never replaced (so
  // the reference given out stays good; map nodes do not move).
  if (auto it = kept.find(path); it != kept.end()) return it->second;
  EncodedAsset a;
  a.body = body;
  const std::string hash = fnv1a64_text(fnv1a64(body)).substr(8);
  a.etag = "\"" + hash + "\"";
  a.gzip = gzip(body);
  a.gzip_etag = "\"" + hash + "-gzip\"";
  return kept.emplace(std::string(path), std::move(a)).first->second;
}

}  // namespace vedette::web
