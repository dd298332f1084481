// A provider directory written by a test: scripts go into a fresh temporary directory, which
// is removed afterwards, and scripts() lists them the way discovery does.
#pragma once

#include <unistd.h>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include "host/engine/rules/resource_data.h"
#include "host/engine/schema/schema_rules.h"
#include "host/lua/core/script_set.h"
#include "host/lua/provider/lua_provider.h"

namespace luaform::lua::testing {

class ProviderDir {
 public:
  ProviderDir() {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("luaform-lua-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~ProviderDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ProviderDir(const ProviderDir&) = delete;
  ProviderDir& operator=(const ProviderDir&) = delete;

  const std::filesystem::path& path() const { return dir_; }

  // Writes `text` to `relative` (creating directories) and returns its full path.
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    auto file = dir_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

  // The scripts found in the directory, for provider "test".
  ScriptSet scripts() const {
    ScriptSet set;
    set.provider_name = "test";
    set.directory = dir_;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      const std::string name = entry.path().filename().string();
      if (name == "provider.lua") set.provider_script = entry.path();
      auto type_of = [&](const std::string& prefix) {
        return "test_" + name.substr(prefix.size(), name.size() - prefix.size() - 4);
      };
      if (name.starts_with("resource_") && name.ends_with(".lua")) {
        set.resources[type_of("resource_")] = entry.path();
      }
      if (name.starts_with("data_source_") && name.ends_with(".lua")) {
        set.data_sources[type_of("data_source_")] = entry.path();
      }
      if (name.starts_with("list_") && name.ends_with(".lua")) {
        set.list_resources[type_of("list_")] = entry.path();
      }
      if (name.starts_with("action_") && name.ends_with(".lua")) {
        set.actions[type_of("action_")] = entry.path();
      }
      if (name.starts_with("state_store_") && name.ends_with(".lua")) {
        set.state_stores[type_of("state_store_")] = entry.path();
      }
      if (name.starts_with("function_") && name.ends_with(".lua")) {
        set.functions[type_of("function_").substr(5)] = entry.path();  // no "test_" prefix
      }
      if (name == "lua-sdk" && entry.is_directory()) set.sdk_directory = entry.path();
    }
    return set;
  }

  std::shared_ptr<engine::ProviderLogic> load() const { return load_provider(scripts()); }

 private:
  std::filesystem::path dir_;
};

// The text of every diagnostic, one per line, for CHECKs on messages.
inline std::string all_text(const engine::Diagnostics& diags) {
  std::string out;
  for (const auto& d : diags.items()) out += d.summary + " | " + d.detail + "\n";
  return out;
}

// The load diagnostics of a provider whose one resource, resource_x.lua, declares `fields` (Lua
// table fields ending in a comma) besides an empty schema and the CRUD functions.
inline std::string load_errors_with_fields(const std::string& fields) {
  ProviderDir dir;
  dir.write("resource_x.lua", "local tf = require(\"luaform\")\nreturn tf.resource {" + fields +
                                  " schema = {}, create = function() end, "
                                  "read = function() end, delete = function() end }\n");
  return all_text(dir.load()->load_diagnostics());
}

// A resource's schema as the engine serves it, with an object of its type built from `attrs`.
struct Instance {
  engine::Schema schema;
  engine::Type type;
  explicit Instance(const engine::ProviderLogic& logic, const std::string& type_name) {
    schema = engine::schema_as_served(logic.schema()).resources.at(type_name);
    type = schema.block.implied_type();
  }
  engine::Value object(engine::Value::Object attrs) const {
    return engine::Value::object(type, std::move(attrs));
  }
  engine::Value null() const { return engine::Value::null(type); }
};

// The error of a failed call as the script raised it, "resource_probe.lua:6: message": the place
// that closes the diagnostic's detail ("... at resource_probe.lua:6."), then its summary.
inline std::string as_raised(const engine::Diagnostic& d) {
  const size_t at = d.detail.rfind(" at ");
  if (at == std::string::npos || !d.detail.ends_with(".")) return d.summary + " | " + d.detail;
  const std::string place = d.detail.substr(at + 4, d.detail.size() - at - 5);
  return place.substr(0, place.find(' ')) + ": " + d.summary;
}

// Runs `expression` in a create function of a fresh provider and returns tostring() of what it
// evaluated to, or "error: " and the error as raised (as_raised) when it raised one.
inline std::string evaluate(const std::string& expression) {
  ProviderDir dir;
  dir.write("resource_probe.lua", R"(local tf = require("luaform")
return tf.resource {
  schema = { out = tf.string { computed = true } },
  create = function(d)
    d:set_id("probe")
    d:set("out", tostring()" + expression +
                                      R"())
  end,
  read = function() end, delete = function() end,
}
)");
  auto logic = dir.load();
  if (!logic->load_diagnostics().empty())
    return "load error: " + all_text(logic->load_diagnostics());
  Instance i(*logic, "test_probe");
  engine::ResourceData d(i.schema, i.null(), i.null(), i.null());
  auto diags = logic->open_session()->call(engine::Operation::Create, "test_probe", d);
  if (diags.has_errors()) return "error: " + as_raised(diags.items()[0]);
  return d.get("out").as_string();
}

}  // namespace luaform::lua::testing
