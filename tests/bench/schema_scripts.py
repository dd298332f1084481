"""Writes a provider directory of ordinary Lua scripts that declares the same types as a
provider's `luaform --schema` answer: each resource, data source and list resource with the same
attributes, nested attributes, flags, descriptions and identity, and hooks that do nothing. It is
what an author would have written by hand for the same schema, so that scenario 7 can set a
provider served from an OpenAPI description beside the scripts it replaces."""

import json
from pathlib import Path

SCALARS = {"string": "tf.string", "number": "tf.number", "bool": "tf.bool"}
FLAGS = ("required", "optional", "computed", "sensitive", "write_only")


def lua_string(text):
    return json.dumps(text, ensure_ascii=False)


def lua_key(name):
    return name if name.isidentifier() else f"[{lua_string(name)}]"


def type_expression(cty):
    if isinstance(cty, str):
        return SCALARS[cty]
    kind, element = cty[0], cty[1]
    if kind in ("list", "set", "map"):
        return f"tf.{kind}({type_expression(element)})"
    if kind == "object":
        fields = ", ".join(f"{lua_key(k)} = {type_expression(v)}" for k, v in element.items())
        return f"tf.object {{ {fields} }}"
    raise ValueError(f"no Lua spelling for the type {cty!r}")


def options(attribute, extra=()):
    parts = [f"{flag} = true" for flag in FLAGS if attribute.get(flag)]
    if attribute.get("deprecation_message"):
        parts.append(f"deprecated = {lua_string(attribute['deprecation_message'])}")
    if attribute.get("description"):
        parts.append(f"description = {lua_string(attribute['description'])}")
    parts.extend(extra)
    return "{ " + ", ".join(parts) + " }"


def attribute_expression(attribute, indent):
    nested = attribute.get("nested_type")
    if nested is None:
        return f"{type_expression(attribute['type'])} {options(attribute)}"
    mode = nested["nesting_mode"]
    inner = schema_table(nested.get("attributes", {}), indent + 2)
    return f"tf.{mode}_nested {options(attribute, [f'schema = {inner}'])}"


def schema_table(attributes, indent, top=False):
    """The Lua table of `attributes`; at the top of a type, without the `id` and `timeouts`
    that every script gets without declaring them."""
    pad = " " * (indent + 2)
    implicit = ("id", "timeouts") if top else ()
    lines = [f"{pad}{lua_key(name)} = {attribute_expression(attribute, indent + 2)},"
             for name, attribute in sorted(attributes.items()) if name not in implicit]
    return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"


def identity_table(identity):
    if not identity:
        return ""
    lines = []
    for name, attribute in sorted(identity["attributes"].items()):
        importing = "true" if attribute.get("required_for_import") else "false"
        lines.append(f"      {lua_key(name)} = {type_expression(attribute['type'])} "
                     f"{options(attribute, [f'required_for_import = {importing}'])},")
    return "  identity = {\n    schema = {\n" + "\n".join(lines) + "\n    },\n  },\n"


def description_line(block):
    text = block.get("description")
    return f"  description = {lua_string(text)},\n" if text else ""


def resource_script(schema, identity):
    block = schema["block"]
    return ('local tf = require("luaform")\n\nreturn tf.resource {\n' + description_line(block)
            + f"  schema = {schema_table(block.get('attributes', {}), 2, top=True)},\n"
            + identity_table(identity)
            + "  create = function(d) d:set_id(\"made\") end,\n"
            + "  read = function() end,\n"
            + "  update = function() end,\n"
            + "  delete = function() end,\n"
            + "  import = tf.import_by_id,\n}\n")


def data_source_script(schema):
    block = schema["block"]
    return ('local tf = require("luaform")\n\nreturn tf.data_source {\n' + description_line(block)
            + f"  schema = {schema_table(block.get('attributes', {}), 2, top=True)},\n"
            + "  read = function(d) d:set_id(\"read\") end,\n}\n")


def list_script(schema):
    block = schema["block"]
    return ('local tf = require("luaform")\n\nreturn tf.list_resource {\n'
            + description_line(block)
            + f"  schema = {schema_table(block.get('attributes', {}), 2, top=True)},\n"
            + "  list = function() end,\n}\n")


def write_scripts(schema_answer, provider_name, directory):
    """Writes the scripts for `schema_answer` (the parsed `--schema` JSON) into `directory`
    and returns how many resource types they declare."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    (provider,) = schema_answer["provider_schemas"].values()
    prefix = provider_name + "_"
    provider_block = provider["provider"]["block"]
    (directory / "provider.lua").write_text(
        'local tf = require("luaform")\n\nreturn tf.provider {\n' + description_line(provider_block)
        + f"  schema = {schema_table(provider_block.get('attributes', {}), 2)},\n}}\n")
    identities = provider.get("resource_identity_schemas", {})
    for name, schema in provider.get("resource_schemas", {}).items():
        (directory / f"resource_{name.removeprefix(prefix)}.lua").write_text(
            resource_script(schema, identities.get(name)))
    for name, schema in provider.get("data_source_schemas", {}).items():
        (directory / f"data_source_{name.removeprefix(prefix)}.lua").write_text(
            data_source_script(schema))
    for name, schema in provider.get("list_resource_schemas", {}).items():
        (directory / f"list_{name.removeprefix(prefix)}.lua").write_text(list_script(schema))
    return len(provider.get("resource_schemas", {}))
