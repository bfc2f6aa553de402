#pragma once
// The page's assets compressed once: gzip (zlib) of each asset at its first
// request, kept with its ETag, and the Accept-Encoding test that chooses
// between it and the plain body (web::App's asset route, web_app.cpp).
#include <string>
#include <string_view>

namespace vedette::web {

// An asset as served: its body, its gzip, and the ETag of each (the gzip's
// differs, as the bodies do: a cache keys them apart, with Vary).
struct EncodedAsset {
  std::string_view body;
  std::string etag;
  std::string gzip;
  std::string gzip_etag;
};

// The asset at `path` (whose body is `body`, embedded in the binary),
// compressed at the first call and kept for the life of the process.
const EncodedAsset& encoded_asset(std::string_view path, std::string_view body);

// True if an Accept-Encoding header value accepts gzip ("gzip", "x-gzip" or
// "*", without q=0).
bool accepts_gzip(std::string_view accept_encoding);

// gzip of `data` (zlib, best compression); throws std::runtime_error if
// zlib fails.
std::string gzip(std::string_view data);

}  // namespace vedette::web
