// `vedette serve`: the table-side web page for the solo sessions of a
// folder (sims/web/). The page's changes are `vedette solo` commands run
// in-process through cli::run: the same rules path and session files as the
// terminal, both ways.
#include <ifaddrs.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>

#include "sims/cli/cli.hpp"
#include "sims/web/server.hpp"
#include "sims/web/web_app.hpp"

namespace vedette::cli {

namespace {

struct ServeOptions {
  std::string dir = ".";
  int port = 8080;
  std::string listen = "127.0.0.1";
};

std::atomic<bool> g_stop{false};  // set by SIGINT/SIGTERM: the server stops
void on_serve_signal(int) { g_stop = true; }

// The machine's addresses other than loopback: IPv4 ("192.168.1.5", where
// a phone on the same network can reach a server listening on 0.0.0.0),
// and with `ipv6` also IPv6 in brackets ("[fe80::1]", as a Host names it).
std::vector<std::string> lan_addresses(bool ipv6 = false) {
  std::vector<std::string> out;
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return out;
  for (ifaddrs* a = list; a; a = a->ifa_next) {
    if (!a->ifa_addr) continue;
    if (a->ifa_addr->sa_family == AF_INET) {
      char buf[INET_ADDRSTRLEN] = {};
      const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);
      if (::inet_ntop(AF_INET, &in->sin_addr, buf, sizeof buf) && !web::is_loopback(buf)) out.emplace_back(buf);
    } else if (ipv6 && a->ifa_addr->sa_family == AF_INET6) {
      char buf[INET6_ADDRSTRLEN] = {};
      const auto* in = reinterpret_cast<const sockaddr_in6*>(a->ifa_addr);
      if (::inet_ntop(AF_INET6, &in->sin6_addr, buf, sizeof buf) && !web::is_loopback(buf))
        out.push_back("[" + std::string(buf) + "]");
    }
  }
  ::freeifaddrs(list);
  return out;
}

int run_serve(const ServeOptions& o, Io& io) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(o.dir, ec)) throw UsageError("--dir " + o.dir + ": no such folder");
  const bool open = !web::is_loopback(o.listen);
  web::AppOptions ao;
  ao.dir = fs::absolute(o.dir).lexically_normal();
  if (ao.dir.filename().empty()) ao.dir = ao.dir.parent_path();  // "/tmp/x/" -> "/tmp/x"
  if (open) ao.token = web::new_token();
  // The names a request may give as its Host (the loopback names always):
  // the listen address and this machine's own addresses, nothing else.
  ao.hosts = lan_addresses(true);
  if (o.listen != "0.0.0.0" && o.listen != "::")
    ao.hosts.push_back(o.listen.find(':') != std::string::npos ? "[" + o.listen + "]" : o.listen);
  web::App app(ao);
  g_stop = false;
  struct sigaction sa {};
  sa.sa_handler = on_serve_signal;
  ::sigemptyset(&sa.sa_mask);
  struct sigaction old_int {}, old_term {};
  ::sigaction(SIGINT, &sa, &old_int);
  ::sigaction(SIGTERM, &sa, &old_term);
  web::ServeOptions so;
  so.listen = o.listen;
  so.port = o.port;
  const bool ok = web::serve(
      app, so,
      [&](int port) {
        app.listening_on(port);
        const std::string query = open ? "/?token=" + ao.token : "/";
        std::vector<std::string> hosts;
        if (o.listen == "0.0.0.0") hosts = lan_addresses();
        if (hosts.empty()) hosts.push_back(o.listen.find(':') != std::string::npos ? "[" + o.listen + "]" : o.listen);
        io.out << "Vedette serves the solo sessions in " << ao.dir.string() << "\n";
        for (const auto& h : hosts) io.out << "Open: http://" << h << ":" << port << query << "\n";
        if (open) {
          io.out << "Anyone on this network with the link (and its token) can play these sessions; scan it with the phone:\n"
                 << web::qr_text("http://" + hosts.front() + ":" + std::to_string(port) + query);
        }
        io.out << "Ctrl-C stops the server (every change is already saved).\n";
        io.out.flush();
      },
      g_stop, io.err);
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  if (!ok) return 1;
  io.out << "Stopped. The sessions are saved; `vedette serve` again to go on.\n";
  return 0;
}

}  // namespace

void add_serve(CLI::App& app, Runner& run) {
  auto o = std::make_shared<ServeOptions>();
  auto* c = app.add_subcommand("serve", "The table-side web page for your solo sessions (a phone or tablet beside the miniatures)");
  c->add_option("--dir", o->dir, "The folder of session files (default: this one)");
  c->add_option("--port", o->port, "The port (default 8080; 0: any free port)")->check(CLI::Range(0, 65535));
  c->add_option("--listen", o->listen,
                "The address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for a phone on your network, "
                "which then needs the access token printed in the link)");
  c->footer("On a phone: vedette serve --listen 0.0.0.0, then scan the QR code printed in the terminal.");
  c->callback([o, &run] { run = [o](Io& io) { return run_serve(*o, io); }; });
}

}  // namespace vedette::cli
