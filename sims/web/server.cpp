#include "sims/web/server.hpp"

#include <httplib.h>
#include <qrencode.h>
#include <sys/socket.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <thread>

#include "sims/web/encoding.hpp"

namespace vedette::web {

bool is_loopback(const std::string& a) { return a == "localhost" || a == "::1" || a.rfind("127.", 0) == 0; }

std::string new_token() {
  unsigned char bytes[16] = {};
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  urandom.read(reinterpret_cast<char*>(bytes), sizeof bytes);
  if (!urandom) throw std::runtime_error("cannot read /dev/urandom for the access token");
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string t;
  for (unsigned char b : bytes) {
    t += k_hex[b >> 4];
    t += k_hex[b & 15];
  }
  return t;
}

std::string qr_text(const std::string& text) {
  std::unique_ptr<QRcode, void (*)(QRcode*)> qr(QRcode_encodeString8bit(text.c_str(), 0, QR_ECLEVEL_L), QRcode_free);
  if (!qr) return "";
  const int w = qr->width, quiet = 2, n = w + 2 * quiet;
  auto dark = [&](int x, int y) {
    x -= quiet;
    y -= quiet;
    return x >= 0 && y >= 0 && x < w && y < w && (qr->data[y * w + x] & 1);
  };
  // Two rows of modules per line: light on dark terminals and dark on
  // light ones both scan, as the code is drawn with its quiet zone.
  std::string s;
  for (int y = 0; y < n; y += 2) {
    for (int x = 0; x < n; ++x) {
      const bool top = dark(x, y), bottom = y + 1 < n && dark(x, y + 1);
      s += top && bottom ? " " : top ? "\u2584" : bottom ? "\u2580" : "\u2588";
    }
    s += "\n";
  }
  return s;
}

namespace {

Request to_request(const httplib::Request& q) {
  Request r;
  r.method = q.method;
  r.path = q.path;
  for (const auto& [k, v] : q.params) r.query[k] = v;
  for (const auto& [k, v] : q.headers) {
    std::string name = k;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    r.headers[name] = v;
  }
  r.body = q.body;
  return r;
}

}  // namespace

bool serve(App& app, const ServeOptions& o, const std::function<void(int)>& ready, std::atomic<bool>& stop, std::ostream& err) {
  httplib::Server server;
  // Bounded requests: a body larger than the API takes is refused before it
  // is read (413); a client that stops sending is dropped after 5 s.
  server.set_payload_max_length(k_max_body);
  server.set_read_timeout(5, 0);
  server.set_write_timeout(5, 0);
  // A kept-alive connection holds a worker: keep them short, so that many
  // phones and tabs polling at once take turns rather than starve.
  server.set_keep_alive_timeout(1);
  server.set_keep_alive_max_count(10);
  server.new_task_queue = [] { return new httplib::ThreadPool(64); };
  auto handler = [&app](const httplib::Request& q, httplib::Response& res) {
    const Reply r = app.handle(to_request(q));
    // An asset's encoding is chosen by the App (it says Vary:
    // Accept-Encoding; its gzip is made once, sims/web/encoding.hpp).
    // cpp-httplib compresses a body after the handler, deciding from the
    // request's Accept-Encoding alone: without it, it leaves the body be.
    // (The request is the server's own, not const: this is allowed.)
    auto& asked = const_cast<httplib::Request&>(q).headers;
    if (r.headers.count("Vary")) {
      asked.erase("Accept-Encoding");
    } else if (accepts_gzip(q.get_header_value("Accept-Encoding"))) {
      // Any other reply (the API's JSON): gzip at zlib's default level, not
      // brotli at its slowest quality (cpp-httplib's choice when br is
      // accepted: some milliseconds for each status poll's 1-2 KB).
      asked.erase("Accept-Encoding");
      asked.emplace("Accept-Encoding", "gzip");
    }
    res.status = r.status;
    for (const auto& [k, v] : r.headers) res.set_header(k.c_str(), v);
    res.set_content(r.body, r.content_type.c_str());
  };
  server.Get(R"(/.*)", handler);
  server.Post(R"(/.*)", handler);
  server.Put(R"(/.*)", handler);
  server.Delete(R"(/.*)", handler);
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413) res.set_content(error_reply(413, "the request body is too large").body, "application/json");
  });
  // The listening socket: SO_REUSEADDR only (so a restarted server gets its
  // port back at once), not the library's default SO_REUSEPORT, which lets a
  // second `vedette serve` bind the same port and split the requests.
  int listen_fd = -1;
  server.set_socket_options([&listen_fd](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd = sock;
  });
  int port = o.port;
  if (port == 0) {
    port = server.bind_to_any_port(o.listen.c_str());
    if (port < 0) port = 0;
  } else if (!server.bind_to_port(o.listen.c_str(), port)) {
    port = 0;
  }
  if (port <= 0) {
    err << "vedette: cannot listen on " << o.listen << ":" << o.port << " (in use, or not an address of this machine)\n";
    return false;
  }
  // Debian's cpp-httplib listens with a backlog of 5: when many clients
  // reconnect at once (a kept-alive connection ends after 10 requests), the
  // connections beyond it are dropped and retried seconds later. Listening
  // again on the bound socket raises the backlog (Linux).
  if (listen_fd >= 0) ::listen(listen_fd, SOMAXCONN);
  std::thread watcher([&] {
    while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server.stop();
  });
  ready(port);
  const bool ok = server.listen_after_bind();
  const bool asked = stop.exchange(true);
  watcher.join();
  return ok || asked;
}

}  // namespace vedette::web
