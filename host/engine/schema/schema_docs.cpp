#include "host/engine/schema/schema_docs.h"

#include <sstream>
#include <vector>

namespace luaform::engine {
namespace {

// "String", "List of Number", "Map of Object": how registry pages name types.
std::string type_label(const Type& t) {
  switch (t.kind()) {
    case TypeKind::String:
      return "String";
    case TypeKind::Number:
      return "Number";
    case TypeKind::Bool:
      return "Boolean";
    case TypeKind::List:
      return "List of " + type_label(t.element());
    case TypeKind::Set:
      return "Set of " + type_label(t.element());
    case TypeKind::Map:
      return "Map of " + type_label(t.element());
    case TypeKind::Object:
      return "Object";
    case TypeKind::Tuple:
      return "Tuple";
    case TypeKind::Dynamic:
      return "Dynamic";
  }
  return "Unknown";
}

const char* nesting_label(NestingMode mode) {
  switch (mode) {
    case NestingMode::Single:
      return "Block";
    case NestingMode::List:
      return "Block List";
    case NestingMode::Set:
      return "Block Set";
    case NestingMode::Map:
      return "Block Map";
    case NestingMode::Group:
      return "Block";
  }
  return "Block";
}

const char* nested_attribute_label(NestingMode mode) {
  switch (mode) {
    case NestingMode::List:
      return "Attributes List";
    case NestingMode::Set:
      return "Attributes Set";
    case NestingMode::Map:
      return "Attributes Map";
    default:
      return "Attributes";
  }
}

// Text on one line, for the front matter's YAML block and for list items.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '\n') ? ' ' : c;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A description as a sentence, so that the notes appended after it read as sentences too.
std::string sentence(const std::string& text) {
  std::string out = one_line(text);
  if (!out.empty() && out.back() != '.' && out.back() != '!' && out.back() != '?') {
    out += '.';
  }
  return out;
}

// "disk.size" -> "nestedblock--disk--size": the anchor of a nested schema section.
std::string anchor_of(const std::string& path) {
  std::string out = "nestedblock--";
  for (char c : path) out += (c == '.') ? std::string("--") : std::string(1, c);
  return out;
}

struct Nested {
  std::string path;  // dotted, from the top
  const Block* block;
};

// What the docs say of an attribute's default: where a function takes it from, never what the
// function gave while the schema was read (an environment variable of the shell that ran
// --docs, a token), and a literal only when the attribute is not sensitive.
std::string default_note(const Attribute& a) {
  if (a.default_source) {
    const DefaultSource& source = *a.default_source;
    if (source.environment.empty())
      return " Defaults to what a function gives when the provider loads.";
    std::string note = source.environment.size() == 1
                           ? " Defaults to the environment variable "
                           : " Defaults to the first set of the environment variables ";
    for (size_t i = 0; i < source.environment.size(); ++i) {
      note += (i == 0 ? "`" : ", `") + source.environment[i] + "`";
    }
    if (source.fallback) {
      note += a.sensitive ? ", else to a value not shown here (sensitive)"
                          : ", else to `" + source.fallback->to_display_string() + "`";
    }
    return note + ".";
  }
  if (!a.default_value) return "";
  if (a.sensitive) return " Has a default, not shown here (sensitive).";
  return " Defaults to `" + a.default_value->to_display_string() + "`.";
}

// Whether the docs list an attribute as required. An attribute declared required whose
// default is an environment variable is optional in a schema read where it is set; the docs
// describe the provider, not the shell they were written in.
bool documented_required(const Attribute& a) {
  if (a.required) return true;
  return a.default_source && a.default_source->declared_required &&
         !a.default_source->environment.empty() && !a.default_source->fallback;
}

// One "- `name` (Type, flags) description" line for an attribute.
std::string attribute_item(const Attribute& a, const std::string& path,
                           std::vector<Nested>& nested) {
  std::string label = a.nested ? nested_attribute_label(a.nested->nesting) : type_label(a.type);
  if (a.sensitive) label += ", Sensitive";
  if (a.write_only) label += ", Write-only";
  if (!a.deprecated.empty()) label += ", Deprecated";
  std::string line = "- `" + a.name + "` (" + label + ")";
  if (!a.description.empty()) line += " " + sentence(a.description);
  line += default_note(a);
  if (a.force_new) line += " Changing it replaces the resource.";
  if (a.write_only) line += " Sent to the provider, never stored in state or plans.";
  if (!a.deprecated.empty()) line += " Deprecated: " + one_line(a.deprecated);
  if (a.nested) {
    const std::string inner = path.empty() ? a.name : path + "." + a.name;
    line += " (see [below for nested schema](#" + anchor_of(inner) + "))";
    nested.push_back({inner, &a.nested->block});
  }
  return line + "\n";
}

std::string block_item(const NestedBlock& b, const std::string& path, std::vector<Nested>& nested) {
  std::string label = nesting_label(b.nesting);
  if (b.min_items > 0) label += ", Min: " + std::to_string(b.min_items);
  if (b.max_items > 0) label += ", Max: " + std::to_string(b.max_items);
  const std::string inner = path.empty() ? b.type_name : path + "." + b.type_name;
  std::string line = "- `" + b.type_name + "` (" + label + ")";
  if (!b.block.description.empty()) line += " " + sentence(b.block.description);
  if (b.force_new) line += " Changing it replaces the resource.";
  if (b.computed) line += " Filled in by the provider when the configuration has none.";
  nested.push_back({inner, &b.block});
  return line + " (see [below for nested schema](#" + anchor_of(inner) + "))\n";
}

// The Required / Optional / Read-Only lists of one block; nested blocks are queued.
void write_block(std::ostringstream& out, const Block& block, const std::string& path,
                 bool top_level, std::vector<Nested>& nested) {
  std::string required;
  std::string optional;
  std::string read_only;
  for (const auto& a : block.attributes) {
    std::string item = attribute_item(a, path, nested);
    if (documented_required(a)) {
      required += item;
    } else if (a.optional) {
      optional += item;
    } else {
      read_only += item;
    }
  }
  for (const auto& b : block.blocks) {
    std::string item = block_item(b, path, nested);
    (b.min_items > 0 ? required : optional) += item;
  }
  for (const auto& [title, items] :
       {std::pair<const char*, const std::string&>{"Required", required},
        {"Optional", optional},
        {"Read-Only", read_only}}) {
    if (items.empty()) continue;
    // Top-level lists get headings; inside a nested schema, a label (tfplugindocs' style).
    out << "\n"
        << (top_level ? "### " + std::string(title) : std::string(title) + ":") << "\n\n"
        << items;
  }
}

void write_schema(std::ostringstream& out, const Block& block) {
  out << "\n<!-- schema generated by luaform --docs -->\n## Schema\n";
  std::vector<Nested> nested;
  write_block(out, block, "", true, nested);
  // Breadth-first: each nested schema after the one that mentions it.
  for (size_t i = 0; i < nested.size(); ++i) {
    const Nested n = nested[i];
    out << "\n<a id=\"" << anchor_of(n.path) << "\"></a>\n### Nested Schema for `" << n.path
        << "`\n";
    write_block(out, *n.block, n.path, false, nested);
  }
}

// The attributes an import block's `identity = { ... }` takes, like tfplugindocs' identity
// section.
void write_identity(std::ostringstream& out, const std::string& type_name,
                    const ResourceIdentity& identity) {
  out << "\n## Identity Schema\n\nThe object's identity, which an import block may give "
         "instead of an id:\n\n```terraform\nimport {\n  to       = "
      << type_name << ".example\n  identity = {\n";
  for (const auto& a : identity.attributes) {
    if (a.required_for_import) out << "    " << a.name << " = ...\n";
  }
  out << "  }\n}\n```\n";
  std::string required;
  std::string optional;
  for (const auto& a : identity.attributes) {
    std::string line = "- `" + a.name + "` (" + type_label(a.type) + ")";
    if (!a.description.empty()) line += " " + sentence(a.description);
    (a.required_for_import ? required : optional) += line + "\n";
  }
  if (!required.empty()) out << "\n### Required\n\n" << required;
  if (!optional.empty()) out << "\n### Optional\n\n" << optional;
}

void write_front_matter(std::ostringstream& out, const std::string& title,
                        const std::string& description) {
  out << "---\npage_title: \"" << title << "\"\nsubcategory: \"\"\ndescription: |-\n  "
      << one_line(description) << "\n---\n\n";
}

void write_example(std::ostringstream& out, const DocExamples& examples, const std::string& key,
                   const char* language = "terraform") {
  auto it = examples.find(key);
  if (it == examples.end()) return;
  std::string text = it->second;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  out << "\n## Example Usage\n\n```" << language << "\n" << text << "\n```\n";
}

// How to bring an existing object under management, as registry pages show it: the example's
// own command when there is one, else an import block and the CLI command, by id.
void write_import(std::ostringstream& out, const std::string& type_name, const Schema& schema,
                  const DocExamples& examples, const std::string& key) {
  out << "\n## Import\n\n";
  auto own = examples.find(key + "/import");
  if (own != examples.end()) {
    std::string text = own->second;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    out << "Import is supported using the following syntax:\n\n```shell\n" << text << "\n```\n";
    return;
  }
  out << "An existing object is imported by its id, with an import block:\n\n```terraform\n"
         "import {\n  to = "
      << type_name << ".example\n  id = \"<id>\"\n}\n```\n\nor on the command line:\n\n```shell\n"
      << "terraform import " << type_name << ".example <id>\n```\n";
  if (schema.identity) {
    out << "\nIt can also be imported by its identity (see Identity Schema below).\n";
  }
}

std::string object_page(const std::string& provider, const std::string& type_name,
                        const Schema& schema, const char* kind, const std::string& key,
                        const DocExamples& examples, bool importable = false) {
  std::ostringstream out;
  write_front_matter(out, type_name + " " + kind + " - " + provider, schema.block.description);
  out << "# " << type_name << " (" << kind << ")\n";
  if (!schema.block.description.empty()) out << "\n" << schema.block.description << "\n";
  write_example(out, examples, key);
  write_schema(out, schema.block);
  if (importable) write_import(out, type_name, schema, examples, key);
  if (schema.identity) write_identity(out, type_name, *schema.identity);
  return out.str();
}

// A list resource's page, as tfplugindocs lays out list-resources/: the filters a `list` block's
// `config` takes, with the example query file.
std::string list_page(const std::string& provider, const std::string& type_name,
                      const Schema& schema, const DocExamples& examples) {
  std::ostringstream out;
  write_front_matter(out, type_name + " List Resource - " + provider, schema.block.description);
  out << "# " << type_name << " (List Resource)\n";
  if (!schema.block.description.empty()) out << "\n" << schema.block.description << "\n";
  out << "\nLists existing " << type_name
      << " objects by their identities, for `terraform query` (Terraform 1.14 and later) in a "
         "`.tfquery.hcl` file; `-generate-config-out` writes a resource and an import block for "
         "each. The arguments below go in the list block's `config` block.\n";
  write_example(out, examples, "list-resources/" + type_name);
  write_schema(out, schema.block);
  return out.str();
}

// An action's page, as tfplugindocs lays out actions/: how to run it, with its example and the
// arguments of the action block's `config`.
std::string action_page(const std::string& provider, const std::string& type_name,
                        const Schema& schema, const DocExamples& examples) {
  std::ostringstream out;
  write_front_matter(out, type_name + " Action - " + provider, schema.block.description);
  out << "# " << type_name << " (Action)\n";
  if (!schema.block.description.empty()) out << "\n" << schema.block.description << "\n";
  out << "\nAn operation a configuration runs without keeping anything in state (Terraform 1.14 "
         "and later): `terraform apply -invoke=action."
      << type_name
      << ".NAME` runs it once, and an `action_trigger` in a resource's `lifecycle` runs it when "
         "that resource is created or updated. The arguments below go in the action block's "
         "`config` block.\n";
  write_example(out, examples, "actions/" + type_name);
  write_schema(out, schema.block);
  return out.str();
}

// A state store's page: how a configuration keeps its state there, with its example and the
// arguments of the state_store block.
std::string state_store_page(const std::string& provider, const std::string& type_name,
                             const Schema& schema, const DocExamples& examples) {
  std::ostringstream out;
  write_front_matter(out, type_name + " State Store - " + provider, schema.block.description);
  out << "# " << type_name << " (State Store)\n";
  if (!schema.block.description.empty()) out << "\n" << schema.block.description << "\n";
  out << "\nWhere Terraform keeps its own state, through this provider: a `state_store \""
      << type_name << "\"` block in the `terraform` block, with a `provider \"" << provider
      << "\"` block inside it for the provider's configuration (Terraform 1.16 with its state "
         "store experiment, protocol 6). Each workspace is one state. The arguments below go in "
         "the state_store block.\n";
  write_example(out, examples, "state-stores/" + type_name);
  write_schema(out, schema.block);
  return out.str();
}

std::string parameter_item(const FunctionParameter& p, bool variadic) {
  std::string line = "- `" + p.name + "` (" + type_label(p.type);
  if (variadic) line += ", Variadic";
  if (p.allow_null) line += ", Nullable";
  line += ")";
  if (!p.description.empty()) line += " " + one_line(p.description);
  return line + "\n";
}

std::string function_page(const std::string& provider, const std::string& name, const Function& f,
                          const DocExamples& examples) {
  std::ostringstream out;
  write_front_matter(out, name + " function - " + provider,
                     f.summary.empty() ? f.description : f.summary);
  out << "# function: " << name << "\n";
  if (!f.summary.empty()) out << "\n" << f.summary << "\n";
  if (!f.description.empty()) out << "\n" << f.description << "\n";
  if (!f.deprecated.empty()) out << "\n**Deprecated:** " << f.deprecated << "\n";
  write_example(out, examples, "functions/" + name);
  out << "\n## Signature\n\n```text\n" << name << "(";
  for (size_t i = 0; i < f.parameters.size(); ++i) {
    out << (i ? ", " : "") << f.parameters[i].name << " " << f.parameters[i].type.friendly_name();
  }
  if (f.variadic) {
    out << (f.parameters.empty() ? "" : ", ") << f.variadic->name << " "
        << f.variadic->type.friendly_name() << "...";
  }
  out << ") " << f.returns.friendly_name() << "\n```\n";
  if (!f.parameters.empty() || f.variadic) {
    out << "\n## Arguments\n\n";
    for (const auto& p : f.parameters) out << parameter_item(p, false);
    if (f.variadic) out << parameter_item(*f.variadic, true);
  }
  return out.str();
}

std::string index_page(const std::string& provider, const ProviderSchema& schema,
                       const DocExamples& examples) {
  std::ostringstream out;
  write_front_matter(out, provider + " Provider", schema.provider.block.description);
  out << "# " << provider << " Provider\n";
  if (!schema.provider.block.description.empty()) {
    out << "\n" << schema.provider.block.description << "\n";
  }
  write_example(out, examples, "provider");
  write_schema(out, schema.provider.block);
  return out.str();
}

// "example_server" -> "server": pages are named without the provider's prefix.
std::string short_name(const std::string& provider, const std::string& type_name) {
  const std::string prefix = provider + "_";
  return type_name.starts_with(prefix) ? type_name.substr(prefix.size()) : type_name;
}

}  // namespace

std::map<std::string, std::string> registry_docs(const std::string& provider_name,
                                                 const ProviderSchema& schema,
                                                 const DocExamples& examples) {
  std::map<std::string, std::string> pages;
  pages["index.md"] = index_page(provider_name, schema, examples);
  for (const auto& [type_name, s] : schema.resources) {
    pages["resources/" + short_name(provider_name, type_name) + ".md"] = object_page(
        provider_name, type_name, s, "Resource", "resources/" + type_name, examples, s.importable);
  }
  for (const auto& [type_name, s] : schema.data_sources) {
    pages["data-sources/" + short_name(provider_name, type_name) + ".md"] = object_page(
        provider_name, type_name, s, "Data Source", "data-sources/" + type_name, examples);
  }
  for (const auto& [type_name, s] : schema.ephemeral_resources) {
    pages["ephemeral-resources/" + short_name(provider_name, type_name) + ".md"] =
        object_page(provider_name, type_name, s, "Ephemeral Resource",
                    "ephemeral-resources/" + type_name, examples);
  }
  for (const auto& [name, f] : schema.functions) {
    pages["functions/" + name + ".md"] = function_page(provider_name, name, f, examples);
  }
  for (const auto& [type_name, s] : schema.list_resources) {
    pages["list-resources/" + short_name(provider_name, type_name) + ".md"] =
        list_page(provider_name, type_name, s, examples);
  }
  for (const auto& [type_name, s] : schema.state_stores) {
    pages["state-stores/" + short_name(provider_name, type_name) + ".md"] =
        state_store_page(provider_name, type_name, s, examples);
  }
  for (const auto& [type_name, s] : schema.actions) {
    pages["actions/" + short_name(provider_name, type_name) + ".md"] =
        action_page(provider_name, type_name, s, examples);
  }
  return pages;
}

}  // namespace luaform::engine
