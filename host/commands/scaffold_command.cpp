#include "host/commands/scaffold_command.h"

#include "host/commands/text_file.h"

#include <cctype>
#include <map>
#include <regex>
#include <system_error>
#include <vector>

namespace luaform {
namespace fs = std::filesystem;

namespace {

// The skeleton's files; "NAME" stands for the provider name, "@UPPER@" for it in upper case
// (environment variables), "@DIR@" for the directory's absolute path, "@PACKAGER@" for where
// package_provider.cmake is and "@TYPES@" for the directory of the SDK's type definitions (as a
// JSON string's content). (The ~ delimiters keep the Lua's `)"` from ending the strings.)
const std::map<std::string, std::string>& templates() {
  static const std::map<std::string, std::string> files = {
      {"provider.lua",
       R"~(-- provider "NAME": its configuration, and configure, which builds the client every
-- resource, data source and import gets. See the authoring guide (lua-sdk/README.md).
local tf = require("luaform")

return tf.provider {
  description = "The NAME provider",
  schema = {
    endpoint = tf.string {
      optional = true,
      default = tf.env("@UPPER@_ENDPOINT", "http://127.0.0.1:8080"),
      description = "Base URL of the API (env @UPPER@_ENDPOINT)",
    },
  },
  configure = function(config, unknown)
    if unknown.endpoint then
      -- It comes from a resource not created yet: the CLI configures the provider again, with
      -- the value known, before it applies.
      return nil
    end
    -- A real provider returns its API client here, for example:
    --   return tf.http.client { base_url = config.endpoint, bearer_token = config.token }
    return { endpoint = config.endpoint }
  end,
}
)~"},
      {"resource_item.lua",
       R"~(-- resource "NAME_item": a starting point. It keeps everything in Terraform's state; replace
-- the marked lines with calls to your API through `client`.
local tf = require("luaform")

return tf.resource {
  description = "An item",
  schema = {
    name = tf.string { required = true, description = "The item's name" },
    note = tf.string { optional = true, default = "", description = "Free text" },
    -- Computed values keep their stored value through updates unless declared otherwise;
    -- this one is new whenever the name changes, so the plan says so.
    size = tf.number { computed = true, description = "Length of the name" },
  },

  create = function(d, client) -- luacheck: no unused args
    -- API: create the object, then set the id it gives as soon as it exists.
    d:set_id(tf.uuid())
    d:set("size", #d:get("name"))
  end,

  read = function(d, client) -- luacheck: no unused args
    -- API: read the object by d:id(); call d:set_id("") when it is gone, and d:set every
    -- attribute from what the API says, so drift shows up in plans.
  end,

  customize_diff = function(d)
    if not d:is_new_resource() and d:has_change("name") then
      d:set_new_computed("size")
    end
  end,

  update = function(d, client) -- luacheck: no unused args
    -- API: send what changed (d:has_change("note")); set only what the update changed.
    if d:has_change("name") then
      d:set("size", #d:get("name"))
    end
  end,

  delete = function(d, client) -- luacheck: no unused args
    -- API: delete the object d:id().
  end,

  import = tf.import_by_id,
}
)~"},
      {"data_source_info.lua", R"~(-- data "NAME_info": reads something without managing it.
local tf = require("luaform")

return tf.data_source {
  description = "What the provider is configured with",
  schema = {
    endpoint = tf.string { computed = true, description = "The configured endpoint" },
  },
  read = function(d, client)
    d:set_id(client.endpoint)
    d:set("endpoint", client.endpoint)
  end,
}
)~"},
      {"function_greet.lua",
       R"~(-- provider::NAME::greet(name): a provider-defined function. Functions compute from their
-- arguments alone; they get no client.
local tf = require("luaform")

return tf.func {
  summary = "Greets someone",
  params = { { name = "name", type = tf.string, description = "Who to greet" } },
  returns = tf.string,
  run = function(name)
    if name == "" then
      tf.fail { summary = "Nobody to greet", detail = "the name is empty", argument = 1 }
    end
    return "Hello, " .. name .. "!"
  end,
}
)~"},
      {"examples/provider/provider.tf", R"~(provider "NAME" {
  endpoint = "http://127.0.0.1:8080"
}
)~"},
      {"examples/resources/NAME_item/resource.tf", R"~(resource "NAME_item" "first" {
  name = "first"
  note = "made by the skeleton"
}
)~"},
      {"examples/data-sources/NAME_info/data-source.tf", R"~(data "NAME_info" "current" {}
)~"},
      {"examples/functions/greet/function.tf", R"~(output "greeting" {
  value = provider::NAME::greet("world") # "Hello, world!"
}
)~"},
      {"try/dev.tfrc",
       R"~(# TF_CLI_CONFIG_FILE=dev.tfrc makes the CLI use the provider from its directory, without
# `init` or a registry.
provider_installation {
  dev_overrides {
    "registry.opentofu.org/luaform/NAME" = "@DIR@"
  }
  direct {}
}
)~"},
      {"try/main.tf", R"~(terraform {
  required_providers {
    NAME = {
      source = "registry.opentofu.org/luaform/NAME"
    }
  }
}

provider "NAME" {}

resource "NAME_item" "first" {
  name = "first"
}

data "NAME_info" "current" {}

output "size" {
  value = NAME_item.first.size
}

output "endpoint" {
  value = data.NAME_info.current.endpoint
}

output "greeting" {
  value = provider::NAME::greet("world")
}
)~"},
      {"tests/item_test.lua",
       R"~(-- Tests of NAME_item: ./terraform-provider-NAME --test runs them; with TF_ACC=1 the
-- acceptance test runs too, with the real CLI (TF_ACC_TERRAFORM_PATH, else tofu on PATH).
local testing = require("luaform_testing")

testing.test("creates an item and updates its note in place", function()
  local item = testing.provider():resource("NAME_item")
  local created = item:create { name = "first" }
  testing.no_errors(created)
  testing.equal(created.state.size, 5)
  local updated = item:apply { prior = created, config = { name = "first", note = "hi" } }
  testing.no_errors(updated)
  testing.equal(updated.replaced, false)
  testing.equal(updated.state.id, created.state.id)
end)

testing.acceptance("item lifecycle", {
  steps = {
    {
      config = 'resource "NAME_item" "a" {\n  name = "first"\n}\n',
      check = function(state)
        testing.equal(state.resources["NAME_item.a"].size, 5)
      end,
    },
    {
      config = 'resource "NAME_item" "a" {\n  name = "first"\n  note = "changed"\n}\n',
      check = function(state)
        testing.equal(state.resources["NAME_item.a"].note, "changed")
      end,
    },
  },
})
)~"},
      {".luarc.json",
       R"~({
  "runtime": {
    "version": "Lua 5.4"
  },
  "workspace": {
    "library": [
      "@TYPES@"
    ]
  }
}
)~"},
      {".luacheckrc",
       R"~(-- luacheck configuration (luacheck reads it in the directory it is run from). Scripts run in
-- luaform's sandbox: every global is read-only, and only this much of the standard library is
-- there (see "The sandbox" in luaform's authoring guide).
std = "luaform"
stds.luaform = {
  read_globals = {
    "_G", "_VERSION", "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load",
    "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require",
    "select", "setmetatable", "tonumber", "tostring", "type", "warn", "xpcall",
    "coroutine", "math", "string", "table", "utf8",
    io = { fields = { "open", "lines", "type" } },
    os = { fields = { "clock", "date", "difftime", "getenv", "remove", "rename", "time" } },
    package = { fields = { "config", "cpath", "loaded", "path", "preload", "searchers",
      "searchpath" } },
  },
}
-- Test files are run by --test as your own code, with the whole io and os libraries.
files["tests"] = { std = "lua54" }
max_line_length = 100
)~"},
      {"README.md", R"~(# The NAME provider

Written in Lua on luaform. Try it with OpenTofu (or Terraform: `terraform apply`):

    cd try && TF_CLI_CONFIG_FILE=dev.tfrc tofu apply

- `./terraform-provider-NAME --check` loads every script and reports problems with file:line.
- `./terraform-provider-NAME --docs docs` writes the documentation from the descriptions and
  `examples/`.
- `./terraform-provider-NAME --test` runs `tests/*_test.lua`; `TF_ACC=1` adds the acceptance
  tests, which drive the real CLI.
- `.luarc.json` points lua-language-server and EmmyLua (editors, `emmylua_check .`) at
  luaform's type definitions: completion, and reports of mistakes such as a misspelt option or
  `d` method. `luacheck .` reads `.luacheckrc`, which knows what the sandbox provides.
- `resource_item.lua` keeps its data in Terraform's state only: replace the marked lines with
  calls to your API, and rename it (`resource_X.lua` is resource `NAME_X`).

`terraform-provider-NAME` is a link to the luaform host. For a release zip with its SHA256SUMS
(the layout registries and filesystem mirrors read):

    cmake -DHOST=terraform-provider-NAME -DPROVIDER_DIR=. -DVERSION=0.1.0 -DOUT=dist \
          -P @PACKAGER@

(the script is `host/packaging/package_provider.cmake` in luaform's source tree, and
`share/luaform/package_provider.cmake` where luaform is installed).
)~"},
  };
  return files;
}

struct Fill {
  std::string name;
  std::string dir;
  std::string packager;
  std::string types;
};

std::string filled(std::string text, const Fill& fill) {
  std::string upper = fill.name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  // The @...@ placeholders first: "NAME" is inside none of their values' spellings.
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"@UPPER@", upper},
                                   {"@DIR@", fill.dir},
                                   {"@PACKAGER@", fill.packager},
                                   {"@TYPES@", fill.types},
                                   {"NAME", fill.name}}) {
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

// Where a file luaform installs under PREFIX/share/luaform is for the host at `host`: installed
// beside it (PREFIX/bin/luaform), or in the source tree it was built from at `in_sources`; else
// the installed path under /usr, which the README then explains.
std::string installed_near(const fs::path& host, const fs::path& installed,
                           [[maybe_unused]] const fs::path& in_sources) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(host, ec);
  std::vector<fs::path> candidates = {real.parent_path().parent_path() / "share" / "luaform" /
                                      installed};
#if defined(LUAFORM_SOURCE_DIR)
  candidates.push_back(fs::path(LUAFORM_SOURCE_DIR) / in_sources);
#endif
  for (const auto& candidate : candidates) {
    if (fs::exists(candidate, ec)) return candidate.generic_string();
  }
  return (fs::path("/usr/share/luaform") / installed).generic_string();
}

// `text` as the content of a JSON string.
std::string json_escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

bool scaffold_provider(const std::string& name, const fs::path& dir, const fs::path& host,
                       std::ostream& out, std::ostream& err) {
  // Provider names become resource prefixes ("NAME_item") and registry addresses.
  if (!std::regex_match(name, std::regex("[a-z][a-z0-9]*"))) {
    err << "error: the provider name must be lowercase letters and digits, starting with a "
           "letter (got \""
        << name << "\")\n";
    return false;
  }
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    err << "error: " << dir.string() << " exists and is not empty; choose a new directory\n";
    return false;
  }
  const fs::path root = fs::absolute(dir, ec);
  const Fill fill{
      name, root.string(),
      installed_near(host, "package_provider.cmake", "host/packaging/package_provider.cmake"),
      json_escaped(installed_near(host, "types", "lua-sdk/types"))};
  for (const auto& [relative, text] : templates()) {
    if (!write_text_file(root / filled(relative, fill), filled(text, fill), out, err)) {
      return false;
    }
  }
  const fs::path link = root / ("terraform-provider-" + name);
  fs::create_symlink(host, link, ec);
  if (ec) {
    err << "error: cannot link " << link.string() << " to " << host.string() << ": " << ec.message()
        << "\n";
    return false;
  }
  out << "linked " << link.string() << " -> " << host.string() << "\n";
  return true;
}

}  // namespace luaform
