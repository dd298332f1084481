// Feeds the YAML reader (host/lua/modules/yaml_reader.h), which reads the OpenAPI descriptions
// a provider directory holds: any text is a document or a YamlError, never a crash, a hang or
// unbounded memory (aliases are bounded). Property: a document that reads, written as JSON (which
// is YAML), reads again to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "host/lua/modules/yaml_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json document;
  try {
    document = luaform::lua::read_yaml(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const luaform::lua::YamlError&) {
    return 0;
  }
  std::string json;
  try {
    json = document.dump();
  } catch (const nlohmann::json::type_error&) {
    return 0;  // text that is not UTF-8: JSON cannot carry it as it is (the host replaces it)
  }
  if (json.size() > (1U << 20U)) return 0;  // aliases made it large; reading it again is slow
  const nlohmann::json again = luaform::lua::read_yaml(json);
  if (again.dump() != json) {
    std::fprintf(stderr,
                 "fuzz property violated: the JSON of a YAML document reads differently\n"
                 "  json: %s\n",
                 json.c_str());
    std::abort();
  }
  return 0;
}
