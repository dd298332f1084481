// A provider made ready the way the CLI readies one before planning: started, handshake
// read, schema fetched, configured.
#pragma once

#include <chrono>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "tests/bench/tools/bench_options.h"
#include "tests/bench/tools/plugin_process.h"
#include "tests/bench/tools/provider_client.h"

namespace luaform::bench {

// A provider that has not announced itself by then is hung, not slow (go-plugin gives a minute).
constexpr std::chrono::seconds kHandshakeTimeout{30};
// How long a provider may take to shut down on SIGTERM before it is killed.
constexpr std::chrono::seconds kStopGrace{5};

// A provider process and our connection to it. However the session ends, the provider is
// stopped as the CLI stops one (see stop()), so that it can remove its socket.
struct ProviderSession {
  std::unique_ptr<PluginProcess> process;
  std::unique_ptr<ProviderClient> client;  // null until the handshake is read
  tfplugin6::GetProviderSchema::Response schema;

  ProviderSession() = default;
  ProviderSession(ProviderSession&&) = default;
  ProviderSession& operator=(ProviderSession&&) = delete;
  ~ProviderSession() { stop(); }
  // go-plugin's Shutdown call, then SIGTERM, then SIGKILL, each given kStopGrace.
  void stop();
};

ProviderStderr provider_stderr(const Options& options);

// Starts the provider and reads its handshake; throws std::runtime_error when either fails.
ProviderSession start_provider(const Options& options);
// start_provider, then GetProviderSchema and ConfigureProvider, checked.
ProviderSession start_configured_provider(const Options& options);

// Throws unless the schema declares resource `type`. A schema without resources (the echo
// floor's) is taken to accept any type.
void check_resource_type(const tfplugin6::GetProviderSchema::Response& schema,
                         const std::string& type);

// Runs `body`; when it throws, the error also says how the provider ended if it did (a
// failed call most often means a crashed provider) and what it last wrote to stderr.
template <typename Body>
auto with_provider_fate(PluginProcess& process, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::exception& e) {
    std::string message = e.what();
    // The connection breaks a moment before the process is gone.
    if (process.wait_for_exit(std::chrono::milliseconds(500))) {
      const std::string how = "the provider " + process.exit_description();
      if (message.find(how) == std::string::npos) message += " (" + how + ")";
    }
    if (const std::string tail = process.stderr_tail(); !tail.empty()) {
      message += "\nthe end of the provider's stderr:\n" + tail;
    }
    throw std::runtime_error(message);
  }
}

}  // namespace luaform::bench
