#include "tests/bench/tools/provider_session.h"

namespace luaform::bench {

ProviderStderr provider_stderr(const Options& options) {
  return options.quiet_provider ? ProviderStderr::Discard : ProviderStderr::Tail;
}

void ProviderSession::stop() {
  if (!process) return;
  const bool asked = client && process->exit_description().empty() && client->request_shutdown();
  client.reset();
  if (asked && process->wait_for_exit(kStopGrace)) return;
  process->terminate(kStopGrace);
}

ProviderSession start_provider(const Options& options) {
  ProviderSession session;
  session.process = PluginProcess::start(options.command, provider_stderr(options));
  with_provider_fate(*session.process, [&] {
    const Handshake handshake = session.process->wait_for_handshake(kHandshakeTimeout);
    session.client = std::make_unique<ProviderClient>(handshake.grpc_target());
  });
  return session;
}

ProviderSession start_configured_provider(const Options& options) {
  ProviderSession session = start_provider(options);
  with_provider_fate(*session.process, [&] {
    session.schema = session.client->get_schema();
    session.client->configure();
  });
  return session;
}

void check_resource_type(const tfplugin6::GetProviderSchema::Response& schema,
                         const std::string& type) {
  const auto& resources = schema.resource_schemas();
  if (resources.empty() || resources.count(type) > 0) return;
  std::string names;
  for (const auto& [name, unused] : resources) names += (names.empty() ? "" : ", ") + name;
  throw std::runtime_error("the provider has no resource type " + type + " (it has " + names + ")");
}

}  // namespace luaform::bench
