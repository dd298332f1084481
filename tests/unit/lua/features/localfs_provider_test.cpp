// The real localfs provider in providers/localfs, run through the bridge without Terraform: its
// scripts load cleanly and its file resource writes, reads, detects removal and deletes.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;
using engine::Operation;
using engine::Value;

namespace {

lua::ScriptSet localfs_scripts() {
  const std::filesystem::path dir = std::filesystem::path(LUAFORM_SOURCE_DIR) / "providers/localfs";
  lua::ScriptSet set;
  set.provider_name = "localfs";
  set.directory = dir;
  set.provider_script = dir / "provider.lua";
  set.resources["localfs_file"] = dir / "resource_file.lua";
  set.resources["localfs_directory"] = dir / "resource_directory.lua";
  set.data_sources["localfs_file"] = dir / "data_source_file.lua";
  return set;
}

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the localfs provider loads without diagnostics") {
  auto logic = lua::load_provider(localfs_scripts());
  CHECK_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  CHECK(logic->schema().provider.block.find_attribute("root") != nullptr);
  CHECK(logic->schema().resources.at("localfs_file").has_update);
  CHECK(logic->schema().resources.at("localfs_file").importable);
  CHECK(logic->schema().resources.at("localfs_directory").has_update);
  CHECK(logic->schema().data_sources.count("localfs_file") == 1);
}

TEST_CASE("localfs_file creates, reads, notices removal of, and deletes a file") {
  ProviderDir scratch;
  auto logic = lua::load_provider(localfs_scripts());
  engine::Type config_type = logic->schema().provider.block.implied_type();
  REQUIRE_FALSE(logic
                    ->configure(Value::object(config_type,
                                              {{"root", Value::string(scratch.path().string())}}))
                    .has_errors());
  Instance file(*logic, "localfs_file");
  // As planned: with the permissions' defaults or configured values.
  Value config = file.object({{"path", Value::string("hello.txt")},
                              {"content", Value::string("hello\n")},
                              {"file_permission", Value::string("0600")},
                              {"directory_permission", Value::string("0755")}});

  engine::ResourceData created(file.schema, file.null(), config, config);
  auto diags = logic->open_session()->call(Operation::Create, "localfs_file", created);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  CHECK(slurp(scratch.path() / "hello.txt") == "hello\n");
  CHECK((std::filesystem::status(scratch.path() / "hello.txt").permissions() &
         std::filesystem::perms::mask) ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  Value state = created.result();
  CHECK(state.get_attribute("id") == Value::string("hello.txt"));
  CHECK(state.get_attribute("size") == Value::number(6));
  CHECK(state.get_attribute("sha256") ==
        Value::string("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"));

  std::filesystem::remove(scratch.path() / "hello.txt");
  engine::ResourceData read(file.schema, state, file.null(), file.null());
  REQUIRE_FALSE(logic->open_session()->call(Operation::Read, "localfs_file", read).has_errors());
  CHECK(read.result().is_null());

  std::ofstream(scratch.path() / "hello.txt") << "again";
  engine::ResourceData deleted(file.schema, state, file.null(), file.null());
  REQUIRE_FALSE(
      logic->open_session()->call(Operation::Delete, "localfs_file", deleted).has_errors());
  CHECK_FALSE(std::filesystem::exists(scratch.path() / "hello.txt"));
}
