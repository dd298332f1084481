#include "host/protocol/tfplugin/pending_service.h"

#include <chrono>
#include <exception>
#include <stdexcept>
#include <utility>

namespace luaform::protocol {
namespace {

std::shared_ptr<engine::wire::WireService> behind_wire(
    std::shared_ptr<engine::ProviderService> service) {
  if (!service) throw std::logic_error("the provider's loader returned no service");
  return std::make_shared<engine::wire::WireService>(std::move(service));
}

}  // namespace

PendingService::Load::~Load() {
  if (thread.joinable()) thread.join();
}

PendingService PendingService::deferred(Loader load, std::function<void()> stop) {
  auto state = std::make_shared<Load>();
  state->loader = std::move(load);
  state->stop = std::move(stop);
  return PendingService(std::move(state));
}

PendingService PendingService::ready(std::shared_ptr<engine::ProviderService> service) {
  auto state = std::make_shared<Load>();
  state->promise.set_value(behind_wire(std::move(service)));
  std::call_once(state->started, [] {});  // nothing left to start
  return PendingService(std::move(state));
}

void PendingService::serve_over(int protocol_version) const {
  load_->protocol_version = protocol_version;
}

void PendingService::start() const {
  Load* load = load_.get();
  std::call_once(load->started, [load] {
    const int protocol_version = load->protocol_version;
    // The thread gets the plain pointer: the Load it fills joins it before going away.
    load->thread = std::thread([load, protocol_version] {
      try {
        load->promise.set_value(behind_wire(load->loader(protocol_version)));
      } catch (...) {
        load->promise.set_exception(std::current_exception());
      }
    });
  });
}

engine::wire::WireService& PendingService::get() const {
  start();
  return *load_->result.get();
}

void PendingService::stop() const {
  const bool loaded = load_->result.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  if (loaded || !load_->stop) {
    get().engine().stop_provider();
  } else {
    load_->stop();
  }
}

}  // namespace luaform::protocol
