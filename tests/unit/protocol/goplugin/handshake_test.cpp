#include "host/protocol/goplugin/handshake.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace luaform::protocol {
namespace {

TEST_CASE("the highest version both sides speak wins, whatever the client's order") {
  CHECK(negotiate_version("5,6", {6, 5}) == 6);
  CHECK(negotiate_version("6,5", {6, 5}) == 6);
  CHECK(negotiate_version("5", {6, 5}) == 5);
  CHECK(negotiate_version(" 4 , 5 ", {6, 5}) == 5);
}

TEST_CASE("LUAFORM_PROTOCOL restricts the offer to one version") {
  CHECK(offered_versions(nullptr) == std::vector<int>{6, 5});
  CHECK(offered_versions("5") == std::vector<int>{5});
  CHECK(offered_versions("6") == std::vector<int>{6});
  CHECK(offered_versions("junk") == std::vector<int>{6, 5});
  CHECK(negotiate_version("5,6", offered_versions("5")) == 5);
}

TEST_CASE("no common version is reported as 0 and a client naming none gets our best") {
  CHECK(negotiate_version("6", {5}) == 0);
  CHECK(negotiate_version("3,4", {6, 5}) == 0);
  CHECK(negotiate_version(nullptr, {6, 5}) == 6);
  CHECK(negotiate_version("", {5}) == 5);
}

TEST_CASE("the handshake line has go-plugin's six fields") {
  CHECK(handshake_line(6, {"unix", "/tmp/d/plugin.sock"}, "MIIB") ==
        "1|6|unix|/tmp/d/plugin.sock|grpc|MIIB");
  CHECK(handshake_line(5, {"unix", "/s"}, "") == "1|5|unix|/s|grpc|");
  // Windows: TCP on loopback.
  CHECK(handshake_line(6, {"tcp", "127.0.0.1:49152"}, "") == "1|6|tcp|127.0.0.1:49152|grpc|");
}

const ListenAddress kSocket{"unix", "/tmp/x/plugin.sock"};

TEST_CASE("the reattach JSON names the provider, a unix address and Test mode") {
  auto j = nlohmann::json::parse(
      reattach_json("registry.opentofu.org/luaform/example", 6, 4242, kSocket));
  const auto& e = j.at("registry.opentofu.org/luaform/example");
  CHECK(e.at("Protocol") == "grpc");
  CHECK(e.at("ProtocolVersion") == 6);
  CHECK(e.at("Pid") == 4242);
  CHECK(e.at("Test") == true);
  CHECK(e.at("Addr").at("Network") == "unix");
  CHECK(e.at("Addr").at("String") == "/tmp/x/plugin.sock");
}

TEST_CASE("the reattach JSON names the provider on both CLIs' default registries") {
  auto j =
      nlohmann::json::parse(reattach_json("registry.opentofu.org/luaform/example", 5, 7, kSocket));
  CHECK(j.size() == 2);
  CHECK(j.at("registry.terraform.io/luaform/example") ==
        j.at("registry.opentofu.org/luaform/example"));
  // Any other host is the user's own registry: the same address for both CLIs.
  auto own =
      nlohmann::json::parse(reattach_json("registry.example.com/team/example", 6, 7, kSocket));
  CHECK(own.size() == 1);
  CHECK(own.contains("registry.example.com/team/example"));
}

}  // namespace
}  // namespace luaform::protocol
