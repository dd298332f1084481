// luaform: the host binary. Renamed terraform-provider-NAME and placed beside Lua scripts, it
// is a Terraform/OpenTofu provider; started by hand, it explains itself.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "host/commands/discovery.h"
#include "host/commands/docs_command.h"
#include "host/commands/scaffold_command.h"
#include "host/engine/rpc/provider_service.h"
#include "host/engine/schema/schema_json.h"
#include "host/engine/value/duration.h"
#include "host/lua/provider/lua_provider.h"
#include "host/lua/testing/test_runner.h"
#include "host/platform/platform.h"
#include "host/protocol/goplugin/serve.h"

#ifndef LUAFORM_VERSION
#define LUAFORM_VERSION "0.0.0"
#endif

namespace {

std::string provider_address(const luaform::lua::ScriptSet& scripts) {
  return "registry.opentofu.org/luaform/" + scripts.provider_name;
}

void print_scripts(const luaform::lua::ScriptSet& scripts, std::ostream& out) {
  out << "provider:     " << scripts.provider_name << "\n"
      << "scripts in:   " << scripts.directory.string() << "\n"
      << "provider.lua: " << (scripts.provider_script ? "yes" : "no (no provider configuration)")
      << "\n";
  for (const auto& [name, path] : scripts.resources) {
    out << "resource:     " << name << "  (" << path.filename().string() << ")\n";
  }
  for (const auto& [name, path] : scripts.data_sources) {
    out << "data source:  " << name << "  (" << path.filename().string() << ")\n";
  }
  for (const auto& [name, path] : scripts.ephemeral_resources) {
    out << "ephemeral:    " << name << "  (" << path.filename().string() << ")\n";
  }
  for (const auto& [name, path] : scripts.functions) {
    out << "function:     provider::" << scripts.provider_name << "::" << name << "  ("
        << path.filename().string() << ")\n";
  }
  for (const auto& [name, path] : scripts.list_resources) {
    out << "list:         " << name << "  (" << path.filename().string() << ")\n";
  }
  for (const auto& [name, path] : scripts.actions) {
    out << "action:       " << name << "  (" << path.filename().string() << ")\n";
  }
  for (const auto& [name, path] : scripts.state_stores) {
    out << "state store:  " << name << "  (" << path.filename().string() << ")\n";
  }
}

void print_usage(const luaform::lua::ScriptSet& scripts, std::ostream& out) {
  out << "luaform " << LUAFORM_VERSION
      << ": a Terraform/OpenTofu provider whose resources are Lua scripts.\n\n";
  print_scripts(scripts, out);
  out << "\nThis binary is a plugin: OpenTofu or Terraform starts it. To use it, name it\n"
         "terraform-provider-NAME, put it next to the scripts, and point the CLI at that\n"
         "directory with dev_overrides in a CLI configuration file:\n\n"
         "  provider_installation {\n"
         "    dev_overrides { \"registry.opentofu.org/luaform/"
      << scripts.provider_name << "\" = \"" << scripts.directory.string()
      << "\" }\n"
         "  }\n\n"
         "Options:\n"
         "  --help      this text\n"
         "  --version   print the version\n"
         "  --check     load every script and report problems (file:line)\n"
         "  --schema    print the provider schema as JSON, as `tofu providers schema -json`\n"
         "  --docs DIR  write registry-style markdown docs into DIR, with the examples found\n"
         "              in examples/ beside the scripts (tfplugindocs' layout)\n"
         "  --scaffold NAME [DIR] [--from FILE]\n"
         "              write a new provider NAME into DIR (default ./NAME) that works at once;\n"
         "              with --from, one served from the OpenAPI description FILE\n"
         "  --debug     serve in reattach mode and print TF_REATTACH_PROVIDERS\n"
         "  --test [PATH...]\n"
         "              run the provider's Lua tests (*_test.lua; default: tests/ beside the\n"
         "              scripts); acceptance tests run with the real CLI when TF_ACC is set\n";
}

void print_diagnostics(const luaform::engine::Diagnostics& diags, std::ostream& out) {
  for (const auto& d : diags.items()) {
    out << (d.severity == luaform::engine::Severity::Error ? "error: " : "warning: ") << d.summary
        << (d.detail.empty() ? "" : "\n  " + d.detail) << "\n";
  }
}

// LUAFORM_LOAD_TIMEOUT (LoadOptions::kDefaultLoadTimeout when unset), or nullopt after saying what
// is wrong with it.
std::optional<std::chrono::milliseconds> load_timeout() {
  const char* text = std::getenv("LUAFORM_LOAD_TIMEOUT");
  if (text == nullptr || *text == '\0') return luaform::lua::LoadOptions::kDefaultLoadTimeout;
  const auto parsed = luaform::engine::parse_duration(text);
  if (!parsed || parsed->count() <= 0) {
    std::cerr << "[ERROR] luaform: LUAFORM_LOAD_TIMEOUT must be a duration such as \"30s\" or "
                 "\"2m\", not \""
              << text << "\"\n";
    return std::nullopt;
  }
  return std::chrono::ceil<std::chrono::milliseconds>(*parsed);
}

// Loads everything and prints each problem; exit status 1 when there is an error.
int check(const luaform::lua::ScriptSet& scripts, const luaform::lua::LoadOptions& load) {
  auto logic = luaform::lua::load_provider(scripts, load);
  const std::vector<std::string> notes = logic->load_notes();
  auto service = std::make_shared<luaform::engine::ProviderService>(std::move(logic));
  const auto& diags = service->load_problems();
  print_scripts(scripts, std::cout);
  for (const std::string& note : notes) std::cout << "note: " << note << "\n";
  print_diagnostics(diags, std::cout);
  // A script left out is a warning for the CLI (the rest serves) and a failure here.
  std::cout << (diags.empty() ? "check passed\n" : "check failed\n");
  return diags.empty() ? 0 : 1;
}

// Runs `use` on the schema the CLI would see and returns its exit status, when the provider
// loads without problems (a script left out is one: its type's docs or schema would be
// missing); else 1. Problems go to stderr, so stdout stays what `use` writes.
template <class Use>
int with_served_schema(const luaform::lua::ScriptSet& scripts,
                       const luaform::lua::LoadOptions& load, Use&& use) {
  const auto logic = luaform::lua::load_provider(scripts, load);
  auto service = std::make_shared<luaform::engine::ProviderService>(logic);
  auto response = service->get_provider_schema();
  print_diagnostics(service->load_problems(), std::cerr);
  if (!service->load_problems().empty() || response.schema == nullptr) return 1;
  return use(*response.schema);
}

// Prints the schema the CLI would see as JSON.
int schema(const luaform::lua::ScriptSet& scripts, const luaform::lua::LoadOptions& load) {
  return with_served_schema(scripts, load, [&](const luaform::engine::ProviderSchema& served) {
    std::cout << luaform::engine::provider_schema_json(provider_address(scripts), served) << "\n";
    return 0;
  });
}

// Writes the registry-style docs of a provider that loads without errors.
int docs(const luaform::lua::ScriptSet& scripts, const luaform::lua::LoadOptions& load,
         const char* dir) {
  if (dir == nullptr || *dir == '\0') {
    std::cerr << "error: --docs needs the directory to write into, as in --docs docs\n";
    return 2;
  }
  return with_served_schema(scripts, load, [&](const luaform::engine::ProviderSchema& served) {
    return luaform::write_docs(scripts, served, dir, std::cout, std::cerr) ? 0 : 1;
  });
}

// Runs the command `arg` names, or returns nothing when `arg` is not one (the CLI starts a
// plugin with no arguments). Each command lists the scripts of the provider `located` names;
// `invoked` is the path this binary was started as.
std::optional<int> run_command(const std::string& arg, const std::filesystem::path& invoked,
                               const luaform::lua::ScriptSet& located, int argc, char** argv) {
  if (arg == "--version") {
    std::cout << "luaform " << LUAFORM_VERSION << "\n";
    return 0;
  }
  if (arg == "--help" || arg == "-h") {
    print_usage(luaform::list_scripts(located), std::cout);
    return 0;
  }
  // The commands that load the scripts take as long as serving may (LUAFORM_LOAD_TIMEOUT).
  luaform::lua::LoadOptions load;
  if (arg == "--check" || arg == "--schema" || arg == "--docs") {
    const auto timeout = load_timeout();
    if (!timeout) return 1;
    load.load_timeout = *timeout;
  }
  if (arg == "--check") return check(luaform::list_scripts(located), load);
  if (arg == "--test") {
    const std::vector<std::string> paths(argv + 2, argv + argc);
    const auto results =
        luaform::lua::run_tests(luaform::list_scripts(located), paths, std::cout, std::cerr);
    return results.failed == 0 ? 0 : 1;
  }
  if (arg == "--schema") return schema(luaform::list_scripts(located), load);
  if (arg == "--docs") {
    return docs(luaform::list_scripts(located), load, argc > 2 ? argv[2] : nullptr);
  }
  if (arg == "--scaffold") {
    if (argc < 3) {
      std::cerr << "error: --scaffold needs the provider name, as in --scaffold example\n";
      return 2;
    }
    // NAME, then DIR and `--from FILE` in either order.
    std::string dir = argv[2];
    std::filesystem::path description;
    for (int i = 3; i < argc; ++i) {
      const std::string_view given = argv[i];
      if (given == "--from") {
        if (i + 1 >= argc) {
          std::cerr << "error: --from needs an OpenAPI description's file, as in --from api.yaml\n";
          return 2;
        }
        description = argv[++i];
      } else if (given.starts_with("--")) {
        std::cerr << "error: --scaffold takes NAME [DIR] [--from FILE], not " << given << "\n";
        return 2;
      } else {
        dir = argv[i];
      }
    }
    std::error_code ec;
    const auto host = std::filesystem::canonical(invoked, ec);
    return luaform::scaffold_provider(argv[2], dir, ec ? invoked : host, std::cout, std::cerr,
                                      description)
               ? 0
               : 1;
  }
  return std::nullopt;
}

// Serves the provider `located` names to the CLI that started this process.
int serve_provider(const luaform::lua::ScriptSet& located, bool debug) {
  luaform::protocol::ServeOptions options;
  options.debug = debug;
  options.provider_address = provider_address(located);
  if (!options.debug && !luaform::protocol::started_by_cli()) {
    print_usage(luaform::list_scripts(located), std::cerr);
    std::cerr << "\nThis binary is a plugin and is not meant to be run directly.\n";
    return 1;
  }
  // The scripts are listed and loaded once serve() has printed the handshake, while the CLI
  // connects (listing a directory of 200 scripts takes a quarter of a millisecond; the CLI
  // waits for the handshake line at every start).
  // One StopProvider counter from the start: a stop that arrives while the scripts load ends
  // the load too.
  luaform::lua::LoadOptions load;
  load.stops = std::make_shared<std::atomic<uint64_t>>(0);
  if (auto timeout = load_timeout()) {
    load.load_timeout = *timeout;
  } else {
    return 1;
  }
  auto service = luaform::protocol::PendingService::deferred(
      [located, load, debug](int protocol_version) {
        auto scripts = luaform::list_scripts(located);
        scripts.served_protocol = protocol_version;
        auto loaded = std::make_shared<luaform::engine::ProviderService>(
            luaform::lua::load_provider(scripts, load));
        // The CLI starts a provider process per graph walk and shows the warnings of each
        // one's ValidateProviderConfig: a script left out is told once per CLI command (in
        // --debug mode one process serves every command, and tells each).
        const auto& diags = loaded->load_problems();
        if (!debug && !diags.empty()) {
          std::string said = located.directory.string();
          for (const auto& d : diags.items()) said += "\n" + d.summary + "\n" + d.detail;
          char hash[32];
          std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(said));
          loaded->tell_load_warnings_once([claim = std::string("warned-") + hash] {
            return luaform::platform::first_in_command(claim);
          });
        }
        return loaded;
      },
      [stops = load.stops] { stops->fetch_add(1); });
  const int status = luaform::protocol::serve(service, options);
  // serve() gave running scripts their grace; tearing down must not take another forever.
  luaform::protocol::exit_after(std::chrono::seconds(5));
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  luaform::platform::tune_allocator();
  luaform::platform::widen_thread_stacks();
  const auto invoked = luaform::invoked_path(argc > 0 ? argv[0] : nullptr);
  const auto located = luaform::locate_provider(invoked);
  const std::string arg = argc > 1 ? argv[1] : "";
  if (auto status = run_command(arg, invoked, located, argc, argv)) return *status;
  return serve_provider(located, arg == "--debug");
}
