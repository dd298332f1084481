// The plugin's life as go-plugin defines it: check the cookie, pick a protocol version,
// listen on a private unix socket (with AutoMTLS when the CLI asks for it), announce the
// socket on stdout, then serve until the CLI says Shutdown or we get SIGTERM.
#include "host/protocol/goplugin/serve.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "host/platform/platform.h"
#include "host/protocol/goplugin/handshake.h"
#include "host/protocol/goplugin/plugin_server.h"
#include "host/protocol/goplugin/shutdown_signal.h"
#include "host/protocol/goplugin/signal_watcher.h"
#if !defined(_WIN32)
#include <unistd.h>

#include "host/protocol/goplugin/socket_path.h"
#endif
#include "host/protocol/goplugin/tls_certificate.h"

namespace luaform::protocol {

namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// Prints a line on stdout and flushes: the CLI reads the handshake line the moment it appears.
void announce(const std::string& line) {
  std::cout << line << "\n";
  std::cout.flush();
}

// How long calls may run on after Shutdown or SIGTERM stopped them.
constexpr std::chrono::seconds kShutdownGrace{5};

// Ends the process if it is still running `grace` after it was made: shutdown must finish.
class ExitWatchdog {
 public:
  explicit ExitWatchdog(std::chrono::seconds grace)
      : thread_([this, grace] {
          if (done_.wait_for(std::chrono::duration_cast<std::chrono::milliseconds>(grace))) return;
          std::cerr << "[ERROR] luaform: calls still running " << grace.count()
                    << " s after shutdown; exiting without them\n";
          std::cerr.flush();
          std::_Exit(2);
        }) {}
  ~ExitWatchdog() {
    done_.request();
    thread_.join();
  }
  ExitWatchdog(const ExitWatchdog&) = delete;
  ExitWatchdog& operator=(const ExitWatchdog&) = delete;

 private:
  ShutdownSignal done_;
  std::thread thread_;
};

// Requests shutdown when the process that started this one is gone (POSIX: this process is
// given another parent). Not in debug mode, where a human owns the process.
class ParentWatch {
 public:
  ParentWatch(bool debug, ShutdownSignal& shutdown) {
#if defined(_WIN32)
    (void)debug;
    (void)shutdown;
#else
    if (debug) return;
    thread_ = std::thread([this, &shutdown, parent = getppid()] {
      while (!done_.wait_for(std::chrono::milliseconds(500))) {
        if (getppid() != parent) {
          std::cerr << "[WARN] luaform: the CLI that started this provider is gone; exiting\n";
          shutdown.request();
          return;
        }
      }
    });
#endif
  }
  ~ParentWatch() {
    done_.request();
    if (thread_.joinable()) thread_.join();
  }
  ParentWatch(const ParentWatch&) = delete;
  ParentWatch& operator=(const ParentWatch&) = delete;

 private:
  ShutdownSignal done_;
  std::thread thread_;
};

}  // namespace

void exit_after(std::chrono::seconds grace) {
  std::thread([grace] {
    std::this_thread::sleep_for(grace);
    std::cerr << "[ERROR] luaform: still running " << grace.count()
              << " s after serving ended; exiting\n";
    std::cerr.flush();
    std::_Exit(2);
  }).detach();
}

bool started_by_cli() {
  return env_or_empty(kMagicCookieKey) == kMagicCookieValue;
}

int serve(const PendingService& service, const ServeOptions& options) {
  if (!options.debug && !started_by_cli()) {
    std::cerr << "This binary is a plugin. These are not meant to be executed directly.\n"
                 "Run the program that uses this plugin (tofu or terraform); it starts the\n"
                 "plugin itself.\n";
    return 1;
  }

  const auto offered = offered_versions(std::getenv("LUAFORM_PROTOCOL"));
  const int version = options.debug
                          ? offered.front()
                          : negotiate_version(std::getenv("PLUGIN_PROTOCOL_VERSIONS"), offered);
  if (version == 0) {
    std::string ours;
    for (int v : offered) ours += (ours.empty() ? "" : ",") + std::to_string(v);
    std::cerr << "[ERROR] luaform: no common plugin protocol version: the CLI offers "
              << env_or_empty("PLUGIN_PROTOCOL_VERSIONS") << ", luaform speaks " << ours << "\n";
    return 1;
  }
  // Before the server starts: an RPC may start the load before serve() does.
  service.serve_over(version);

  std::string error;
  PluginServerConfig config;
#if defined(_WIN32)
  // go-plugin on Windows: TCP on loopback, on a port the system picks.
  config.listen = {"tcp", "127.0.0.1:0"};
#else
  auto socket_dir = SocketDirectory::create(socket_base_directory(), error);
  if (!socket_dir) {
    std::cerr << "[ERROR] luaform: " << error << "\n";
    return 1;
  }
  config.listen = {"unix", socket_dir->socket_path()};
#endif
  std::string server_cert_base64;
  // AutoMTLS exactly when the CLI gave us its certificate; debug clients never do.
  const std::string client_cert = options.debug ? "" : env_or_empty("PLUGIN_CLIENT_CERT");
  if (!client_cert.empty()) {
    auto cert = generate_certificate(error);
    if (!cert) {
      std::cerr << "[ERROR] luaform: cannot create the TLS certificate: " << error << "\n";
      return 1;
    }
    config.tls = MutualTls{cert->cert_pem, cert->key_pem, client_cert};
    server_cert_base64 = cert->der_base64;
  }

  // Installed before the server starts so no signal slips between; the watcher's thread only
  // flags shutdown, and this thread does the actual stopping below.
  std::unique_ptr<PluginServer> server;
  ShutdownSignal signal_shutdown;
  // The CLI handles Ctrl-C itself (and calls StopProvider); a terminal's SIGINT reaches the
  // whole process group, so a plugin ignores it. In debug mode a human owns the terminal.
  std::vector<int> handled = {SIGTERM};
  std::vector<int> ignored = {SIGINT};
  if (options.debug) {
    handled.push_back(SIGINT);
    ignored.clear();
  }
  SignalWatcher watcher(handled, ignored, [&](int) { signal_shutdown.request(); });

  server = PluginServer::start(service, config, error);
  if (!server) {
    std::cerr << "[ERROR] luaform: " << error << "\n";
    return 1;
  }
  // A signal and the Shutdown RPC both end up on the server's own latch.
  std::thread relay([&] {
    signal_shutdown.wait();
    server->shutdown_signal().request();
  });

  if (options.debug) {
    announce("luaform: serving " + options.provider_address + " in debug mode (protocol " +
             std::to_string(version) +
             "). Set this in the environment of tofu/terraform; stop with Ctrl-C:");
    announce("TF_REATTACH_PROVIDERS='" +
             reattach_json(options.provider_address, version, platform::process_id(),
                           server->address()) +
             "'");
  } else {
    announce(handshake_line(version, server->address(), server_cert_base64));
  }
  // Loading the scripts after the handshake, not before, keeps it off the CLI's wait for the
  // plugin to start: the CLI connects meanwhile, and an early RPC waits for the load.
  service.start();

  // The CLI gone without a word (killed): nobody will call Shutdown, so the process ends itself
  // rather than serve, or spin in a script, forever.
  ParentWatch parent_watch(options.debug, signal_shutdown);

  server->shutdown_signal().wait();
  // Scripts still running are stopped, and whatever still runs after the grace (native code no
  // stop reaches) does not keep the process alive: it exits regardless.
  try {
    service.stop();
  } catch (const std::exception&) {
    // The provider failed to load: nothing of it runs.
  }
  ExitWatchdog watchdog(kShutdownGrace);
  server->stop();
  signal_shutdown.request();  // releases the relay when the RPC, not a signal, ended us
  relay.join();
  return 0;
}

}  // namespace luaform::protocol
