#include "host/commands/docs_command.h"

#include <fstream>
#include <sstream>
#include <string>

#include "host/commands/text_file.h"
#include "host/engine/schema/schema_docs.h"

namespace luaform {
namespace fs = std::filesystem;

namespace {

void read_example(const fs::path& file, const std::string& key, engine::DocExamples& out) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return;
  std::ostringstream text;
  text << in.rdbuf();
  out[key] = text.str();
}

engine::DocExamples find_examples(const fs::path& examples, const engine::ProviderSchema& schema) {
  engine::DocExamples found;
  read_example(examples / "provider" / "provider.tf", "provider", found);
  for (const auto& [type_name, _] : schema.resources) {
    read_example(examples / "resources" / type_name / "resource.tf", "resources/" + type_name,
                 found);
    read_example(examples / "resources" / type_name / "import.sh",
                 "resources/" + type_name + "/import", found);
  }
  for (const auto& [type_name, _] : schema.data_sources) {
    read_example(examples / "data-sources" / type_name / "data-source.tf",
                 "data-sources/" + type_name, found);
  }
  for (const auto& [type_name, _] : schema.ephemeral_resources) {
    read_example(examples / "ephemeral-resources" / type_name / "ephemeral-resource.tf",
                 "ephemeral-resources/" + type_name, found);
  }
  for (const auto& [name, _] : schema.functions) {
    read_example(examples / "functions" / name / "function.tf", "functions/" + name, found);
  }
  // tfplugindocs' name for a list resource's example: a query file.
  for (const auto& [type_name, _] : schema.list_resources) {
    read_example(examples / "list-resources" / type_name / "list-resource.tfquery.hcl",
                 "list-resources/" + type_name, found);
  }
  for (const auto& [type_name, _] : schema.actions) {
    read_example(examples / "actions" / type_name / "action.tf", "actions/" + type_name, found);
  }
  for (const auto& [type_name, _] : schema.state_stores) {
    read_example(examples / "state-stores" / type_name / "state-store.tf",
                 "state-stores/" + type_name, found);
  }
  return found;
}

}  // namespace

bool write_docs(const lua::ScriptSet& scripts, const engine::ProviderSchema& schema,
                const fs::path& dir, std::ostream& out, std::ostream& err) {
  const auto examples = find_examples(scripts.directory / "examples", schema);
  for (const auto& [relative, text] :
       engine::registry_docs(scripts.provider_name, schema, examples)) {
    if (!write_text_file(dir / relative, text, out, err)) return false;
  }
  return true;
}

}  // namespace luaform
