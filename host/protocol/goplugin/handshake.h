// go-plugin's handshake: the magic cookie that proves the CLI started us, the choice of
// protocol version, and the lines printed on stdout for the CLI (or a human, in debug mode).
#pragma once

#include <string>
#include <vector>

namespace luaform::protocol {

inline constexpr const char* kMagicCookieKey = "TF_PLUGIN_MAGIC_COOKIE";
inline constexpr const char* kMagicCookieValue =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

// Versions this process offers, best first: {6, 5}, or only the one named by the
// LUAFORM_PROTOCOL switch ("5" or "6") so that each protocol can be tested on its own.
std::vector<int> offered_versions(const char* luaform_protocol_env);

// go-plugin's rule: the highest offered version that appears in the client's
// PLUGIN_PROTOCOL_VERSIONS list ("5,6"). A client that names no versions at all (unset or
// empty) gets our best one; 0 when the client named versions and none of them is ours.
int negotiate_version(const char* client_versions_env, const std::vector<int>& offered);

// Where the plugin listens, as go-plugin names it (Go's net.Addr): a unix socket, or on
// Windows, where go-plugin uses no unix sockets, TCP on loopback.
struct ListenAddress {
  std::string network;  // "unix" or "tcp"
  std::string address;  // a socket path, or "127.0.0.1:PORT"
};

// "1|6|unix|/tmp/x/plugin.sock|grpc|<base64 DER or empty>" (without the newline).
std::string handshake_line(int version, const ListenAddress& listening,
                           const std::string& server_cert_base64);

// The TF_REATTACH_PROVIDERS JSON for debug mode; "Test": true tells the CLI not to kill us.
// A source such as "luaform/NAME" means registry.opentofu.org/luaform/NAME to OpenTofu and
// registry.terraform.io/luaform/NAME to Terraform, so an address on either registry is listed
// under both: the one value works with either CLI (each ignores entries its config does not use).
std::string reattach_json(const std::string& provider_address, int version, long pid,
                          const ListenAddress& listening);

}  // namespace luaform::protocol
