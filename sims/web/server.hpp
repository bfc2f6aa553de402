#pragma once
// `vedette serve`'s HTTP server (Debian's cpp-httplib) around web::App:
// bounded requests (body size, read and write timeouts), a thread pool, and
// a clean stop on SIGINT/SIGTERM.
#include <atomic>
#include <functional>
#include <ostream>
#include <string>

#include "sims/web/web_app.hpp"

namespace vedette::web {

struct ServeOptions {
  std::string listen = "127.0.0.1";
  int port = 8080;  // 0: any free port
};

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback(const std::string& address);
// A random access token (URL-safe, 128 bits from /dev/urandom).
std::string new_token();
// The QR code of `text` drawn with Unicode half blocks, for a terminal
// (libqrencode); empty if it cannot be encoded.
std::string qr_text(const std::string& text);

// Binds, calls `ready(port)` once listening, and serves until `stop` is set
// or the server fails. Returns false (and says why on `err`) if it cannot
// bind.
bool serve(App& app, const ServeOptions& o, const std::function<void(int)>& ready, std::atomic<bool>& stop, std::ostream& err);

}  // namespace vedette::web
