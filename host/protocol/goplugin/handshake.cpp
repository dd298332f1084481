#include "host/protocol/goplugin/handshake.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <nlohmann/json.hpp>

namespace luaform::protocol {

namespace {

// Parses a decimal protocol version, tolerating surrounding blanks; -1 when it is not one.
int parse_version(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) {
    s.remove_suffix(1);
  }
  int v = -1;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return -1;
  return v;
}

}  // namespace

std::vector<int> offered_versions(const char* luaform_protocol_env) {
  if (luaform_protocol_env != nullptr) {
    int v = parse_version(luaform_protocol_env);
    if (v == 5 || v == 6) return {v};
  }
  return {6, 5};
}

int negotiate_version(const char* client_versions_env, const std::vector<int>& offered) {
  std::vector<int> client;
  if (client_versions_env != nullptr) {
    std::string_view rest = client_versions_env;
    while (!rest.empty()) {
      auto comma = rest.find(',');
      int v = parse_version(rest.substr(0, comma));
      if (v >= 0) client.push_back(v);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  std::vector<int> ours = offered;
  std::sort(ours.rbegin(), ours.rend());
  if (client.empty() && (client_versions_env == nullptr || *client_versions_env == '\0')) {
    return ours.empty() ? 0 : ours.front();
  }
  for (int v : ours) {
    if (std::find(client.begin(), client.end(), v) != client.end()) return v;
  }
  return 0;
}

std::string handshake_line(int version, const ListenAddress& listening,
                           const std::string& server_cert_base64) {
  return "1|" + std::to_string(version) + "|" + listening.network + "|" + listening.address +
         "|grpc|" + server_cert_base64;
}

std::string reattach_json(const std::string& provider_address, int version, long pid,
                          const ListenAddress& listening) {
  nlohmann::ordered_json entry = {
      {"Protocol", "grpc"},
      {"ProtocolVersion", version},
      {"Pid", pid},
      {"Test", true},
      {"Addr", {{"Network", listening.network}, {"String", listening.address}}},
  };
  nlohmann::ordered_json all;
  all[provider_address] = entry;
  const std::string registries[] = {"registry.opentofu.org/", "registry.terraform.io/"};
  for (const std::string& from : registries) {
    if (!provider_address.starts_with(from)) continue;
    for (const std::string& to : registries) {
      if (to != from) all[to + provider_address.substr(from.size())] = entry;
    }
  }
  return all.dump();
}

}  // namespace luaform::protocol
