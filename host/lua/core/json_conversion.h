// JSON documents as Lua values: objects become string-keyed tables, arrays become sequences.
// Used to hand stored state to a script's upgrade functions as a plain table, and by the
// `luaform_json` module scripts require.
#pragma once

#include <lua.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace luaform::lua {

// Parses `text` and pushes it. Throws std::runtime_error when the text is not JSON, or when an
// array holds a null (a Lua sequence cannot hold nil, and dropping it would lose a position).
void push_json(lua_State* L, const std::string& text);

// Pushes a parsed document as `decode` would (JSON null as the module's `null`): for documents
// read from other notations that nlohmann::json holds too (YAML descriptions).
void push_json_document(lua_State* L, const nlohmann::json& document);

// Pushes the value of JSON `text` as `decode` does (bounded in depth; what it builds counts
// against the state's memory limit as any Lua value does), `what` naming it in errors; throws
// std::runtime_error saying where the text stops being JSON.
void push_json_text(lua_State* L, const std::string& what, std::string_view text);

// Members of a JSON object kept as text (a resource's private data), `what` naming it in
// errors. push_json_member pushes member `key` (nil when absent; an empty document has none);
// with_json_member returns the document with `key` set to the Lua value at `index` (removed when
// nil), raising an error when the value cannot be JSON. Both refuse a document that is not a
// JSON object.
void push_json_member(lua_State* L, const std::string& document, const std::string& key,
                      const std::string& what);
std::string with_json_member(lua_State* L, const std::string& document, const std::string& key,
                             int index, const std::string& what);

// The module `require("luaform_json")` returns (also `tf.json`):
//   decode(text)        the value; JSON null is `null`, so a null member is not an absent one.
//                       Invalid JSON raises an error saying where.
//   encode(value)       JSON text with sorted keys: tables with keys 1..n are arrays, tables
//                       with string keys objects, an empty table {} unless marked by array();
//                       NaN, functions, mixed or holey tables raise an error naming the path
//   array([t])          marks t (or a new table) as a JSON array; decode marks empty arrays
//   null                the value standing for JSON null
//   equivalent(a, b)    true when both texts are JSON documents with the same meaning (key
//                       order, spacing and number spelling aside); false when either is not JSON
// Every one of them refuses a document or table nested more than 150 levels deep, with an
// error naming it and the bound, and counts what it builds against the state's memory limit.
// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_json_module(lua_State* L);

}  // namespace luaform::lua
