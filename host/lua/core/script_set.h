// The files that make up one Lua provider, as discovered next to the host binary.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace luaform::lua {

struct ScriptSet {
  std::string provider_name;        // "example" for terraform-provider-example
  std::filesystem::path directory;  // where the scripts live; also on package.path
  std::optional<std::filesystem::path> provider_script;  // provider.lua
  std::map<std::string, std::filesystem::path>
      resources;  // "example_server" -> resource_server.lua
  std::map<std::string, std::filesystem::path>
      data_sources;  // "example_image" -> data_source_image.lua
  std::map<std::string, std::filesystem::path>
      ephemeral_resources;                                 // "example_token" -> ephemeral_token.lua
  std::map<std::string, std::filesystem::path> functions;  // "parse_arn" -> function_parse_arn.lua
  std::map<std::string, std::filesystem::path>
      list_resources;  // "example_server" -> list_server.lua (lists resource example_server)
  std::map<std::string, std::filesystem::path> actions;  // "example_reboot" -> action_reboot.lua
  std::map<std::string, std::filesystem::path>
      state_stores;  // "example_state" -> state_store_state.lua
  // A lua-sdk/ directory next to the scripts overrides the SDK embedded in the binary.
  std::optional<std::filesystem::path> sdk_directory;
  // The plugin protocol the provider is served with (5 or 6); 0 for the commands (--schema,
  // --check, --docs, --test), which describe protocol 6. The SDK reads it from the module
  // luaform_served: a description's nested objects are nested attributes, which protocol 5
  // cannot describe.
  int served_protocol = 0;
};

}  // namespace luaform::lua
