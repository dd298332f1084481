// The provider service as the RPC handlers reach it: possibly still loading. serve() prints the
// handshake first and only then starts loading the scripts on a thread of their own (the CLI
// spends that time connecting and negotiating TLS); an RPC that arrives before they are loaded
// waits here for them.
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include "host/engine/wire/wire_service.h"

namespace luaform::protocol {

class PendingService {
 public:
  // Given the protocol version the service is served with (5 or 6; 0 when none was said).
  using Loader = std::function<std::shared_ptr<engine::ProviderService>(int protocol_version)>;

  // A service that `load` makes on a thread of its own once start() is called (or an RPC
  // needs it first); what it returns or throws is what every RPC gets. `stop` stops the
  // provider whether or not it has finished loading (see stop()).
  static PendingService deferred(Loader load, std::function<void()> stop = {});
  // A service that is already loaded (the unit tests' servers).
  static PendingService ready(std::shared_ptr<engine::ProviderService> service);

  // The protocol version the loader is given. Said before the server can take an RPC: an
  // RPC that arrives first starts the load itself.
  void serve_over(int protocol_version) const;
  // Starts loading, once; later calls do nothing.
  void start() const;
  // The service, once loaded (starting the load if nobody has); rethrows what the loader
  // threw. Blocks only while loading.
  engine::wire::WireService& get() const;
  engine::wire::WireService* operator->() const { return &get(); }

  // StopProvider: ends the calls in flight without waiting for the load, which a stop ends
  // too (a script whose top level never returns must not keep one Ctrl-C from working).
  void stop() const;

 private:
  // Shared by every copy; the last copy to go joins the loading thread.
  struct Load {
    Loader loader;
    std::function<void()> stop;  // empty for a service that was ready
    std::atomic<int> protocol_version{0};
    std::once_flag started;
    // The service behind the wire layer, which decodes and encodes the RPCs' values.
    std::promise<std::shared_ptr<engine::wire::WireService>> promise;
    std::shared_future<std::shared_ptr<engine::wire::WireService>> result =
        promise.get_future().share();
    std::thread thread;
    ~Load();
  };
  explicit PendingService(std::shared_ptr<Load> load) : load_(std::move(load)) {}
  std::shared_ptr<Load> load_;
};

}  // namespace luaform::protocol
