#include "host/lua/core/json_conversion.h"

#include <climits>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

// What JSON null becomes: nothing (an absent key; state tables for upgrade functions, where
// null and absent mean the same), or the module's `null` value (decode, where they differ).
enum class NullAs { Absent, Sentinel };

// The address behind the `null` light userdata: unique to this library.
const char kNullSentinel = 0;

void push_null_sentinel(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kNullSentinel));
}

// The registry key of the metatable that marks a table as a JSON array (see json.array).
const char kArrayMarker = 0;

void mark_as_array(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kArrayMarker);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushliteral(L, "json array");
    lua_setfield(L, -2, "__name");
    seal_metatable(L, -1, "json array");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &kArrayMarker);
  }
  lua_setmetatable(L, index);
}

bool marked_as_array(lua_State* L, int index) {
  if (!lua_getmetatable(L, index)) return false;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kArrayMarker);
  const bool marked = lua_rawequal(L, -1, -2) != 0;
  lua_pop(L, 2);
  return marked;
}

// How deeply a document may nest, in every helper that reads or writes one. The walks of this
// file keep their levels on the heap, but nlohmann's comparison and text recurse, one C frame
// per level; release hosts run scripts on threads of 128 KiB (musl's default), of which a
// document at this depth takes a small part (json_conversion_test runs every helper at the
// bound on a thread with a quarter of it). Real documents nest a dozen levels.
constexpr size_t kMaxDepth = 150;

std::string too_deep(const std::string& what) {
  return what + ": the document nests more than " + std::to_string(kMaxDepth) +
         " levels deep, the most JSON helpers take";
}

// Builds the Lua values of a JSON text straight from the parser's events, with no document in
// between: a large description (GitHub's is 13 MB) as a document first took several times its
// size and the time to build and walk it. Each open container is a table on the Lua stack (an
// object's key above it while its member is parsed). Lua's errors are C++ exceptions in this
// build (lua5.4-c++), so one raised by a full memory limit unwinds the parser cleanly.
class LuaBuilder {
 public:
  LuaBuilder(lua_State* L, NullAs null_as, std::string what)
      : L_(L), null_as_(null_as), what_(std::move(what)) {}

  bool null() {
    if (null_as_ == NullAs::Sentinel) {
      push_null_sentinel(L_);
      return added();
    }
    if (open_.empty()) {
      lua_pushnil(L_);
      return true;
    }
    if (open_.back().array) {
      throw std::runtime_error("a list holds a null element, which a Lua table cannot hold");
    }
    lua_pop(L_, 1);  // the member's key: an absent member
    return true;
  }
  bool boolean(bool value) {
    lua_pushboolean(L_, value ? 1 : 0);
    return added();
  }
  bool number_integer(int64_t value) {
    lua_pushinteger(L_, value);
    return added();
  }
  bool number_unsigned(uint64_t value) {
    if (value <= static_cast<uint64_t>(INT64_MAX)) {
      lua_pushinteger(L_, static_cast<lua_Integer>(value));
    } else {
      lua_pushnumber(L_, static_cast<lua_Number>(value));
    }
    return added();
  }
  bool number_float(double value, const std::string& /*text*/) {
    lua_pushnumber(L_, value);
    return added();
  }
  bool string(const std::string& value) {
    lua_pushlstring(L_, value.data(), value.size());
    return added();
  }
  bool binary(nlohmann::json::binary_t& /*value*/) {
    throw std::runtime_error("binary values have no JSON form");
  }
  bool start_object(size_t elements) { return opened(false, elements); }
  bool key(const std::string& name) {
    lua_pushlstring(L_, name.data(), name.size());
    return true;
  }
  bool end_object() { return closed(); }
  bool start_array(size_t elements) { return opened(true, elements); }
  bool end_array() {
    // An empty array is marked, so that encoding it again gives [] rather than {}.
    if (open_.back().position == 0 && null_as_ == NullAs::Sentinel) mark_as_array(L_, -1);
    return closed();
  }
  bool parse_error(size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& error) {
    error_ = error.what();
    return false;
  }

  // nlohmann's message of the error that stopped the parse ("[json.exception.parse_error.101]
  // parse error at line 1, column 5: ..."), empty when none did.
  const std::string& error() const { return error_; }

 private:
  struct Open {
    bool array = false;
    lua_Integer position = 0;  // arrays: the elements set so far
  };

  // `elements`: how many the container holds, when known (a document replayed); the parser
  // says size_t(-1).
  bool opened(bool array, size_t elements) {
    if (open_.size() >= kMaxDepth || !lua_checkstack(L_, 3)) {
      throw std::runtime_error(too_deep(what_));
    }
    const int size = elements < static_cast<size_t>(INT_MAX) ? static_cast<int>(elements) : 0;
    lua_createtable(L_, array ? size : 0, array ? 0 : size);
    open_.push_back({array, 0});
    return true;
  }
  bool closed() {
    open_.pop_back();
    return added();
  }
  // Sets the value on top of the stack into the open container below it (below its key, for
  // an object); the root stays on the stack.
  bool added() {
    check_memory_limit(L_, what_);
    if (open_.empty()) return true;
    Open& parent = open_.back();
    if (parent.array) {
      lua_rawseti(L_, -2, ++parent.position);
    } else {
      lua_rawset(L_, -3);
    }
    return true;
  }

  lua_State* L_;
  NullAs null_as_;
  std::string what_;
  std::vector<Open> open_;
  std::string error_;
};

// Stops the collector while it lives, when it was running.
class GcPause {
 public:
  explicit GcPause(lua_State* L) : L_(L), was_running_(lua_gc(L, LUA_GCISRUNNING) != 0) {
    if (was_running_) lua_gc(L_, LUA_GCSTOP);
  }
  ~GcPause() {
    if (was_running_) lua_gc(L_, LUA_GCRESTART);
  }
  GcPause(const GcPause&) = delete;
  GcPause& operator=(const GcPause&) = delete;

 private:
  lua_State* L_;
  bool was_running_;
};

// Pushes the value of JSON `text`, `what` naming it in a nesting error; returns nlohmann's
// message when the text is not JSON (the stack then holds what was built, for the caller's
// error to discard), empty when it pushed the value.
std::string push_parsed(lua_State* L, std::string_view text, NullAs null_as,
                        const std::string& what) {
  // What is built is garbage-free and reachable from the stack: the collector's steps during
  // the build would only mark it again and again (a fifth of the time a large description
  // took to open). It runs again after, also when an error ends the build.
  const GcPause pause(L);
  LuaBuilder builder(L, null_as, what);
  if (nlohmann::json::sax_parse(text.begin(), text.end(), &builder)) return {};
  return builder.error().empty() ? what + ": not valid JSON" : builder.error();
}

// Feeds the document `root` to `builder` as the parser would have, depth first, its open
// containers on a vector rather than in C frames: a document read from YAML, or one parsed for
// other work, becomes Lua values by the same rules as JSON text.
void replay(const nlohmann::json& root, LuaBuilder& builder) {
  struct Open {
    const nlohmann::json* container;
    nlohmann::json::const_iterator next;
  };
  std::vector<Open> open;
  auto start = [&](const nlohmann::json& j) {
    switch (j.type()) {
      case nlohmann::json::value_t::null:
      case nlohmann::json::value_t::discarded:
        builder.null();
        break;
      case nlohmann::json::value_t::boolean:
        builder.boolean(j.get<bool>());
        break;
      case nlohmann::json::value_t::number_integer:
        builder.number_integer(j.get<int64_t>());
        break;
      case nlohmann::json::value_t::number_unsigned:
        builder.number_unsigned(j.get<uint64_t>());
        break;
      case nlohmann::json::value_t::number_float:
        builder.number_float(j.get<double>(), {});
        break;
      case nlohmann::json::value_t::string:
        builder.string(j.get_ref<const std::string&>());
        break;
      case nlohmann::json::value_t::binary:
        throw std::runtime_error("binary values have no JSON form");
      case nlohmann::json::value_t::array:
        builder.start_array(j.size());
        open.push_back({&j, j.cbegin()});
        break;
      case nlohmann::json::value_t::object:
        builder.start_object(j.size());
        open.push_back({&j, j.cbegin()});
        break;
    }
  };
  start(root);
  while (!open.empty()) {
    Open& top = open.back();
    if (top.next == top.container->cend()) {
      const bool array = top.container->is_array();
      open.pop_back();
      if (array) {
        builder.end_array();
      } else {
        builder.end_object();
      }
      continue;
    }
    const auto member = top.next++;
    if (top.container->is_object()) builder.key(member.key());
    start(member.value());
  }
}

// Pushes the document `root` as Lua values, JSON null as the module's `null`.
void push(lua_State* L, const nlohmann::json& root) {
  LuaBuilder builder(L, NullAs::Sentinel, "a JSON document");
  replay(root, builder);
}

// What the document parsed from `size` bytes of `text` will take in memory, and how deeply it
// nests, from one pass over the text (nlohmann's own parse callback cannot count it: with a
// callback, its parser rescans an array at the end of every object in it, which is quadratic).
// The bytes are a generous estimate of nlohmann's layout: a slot per value (a vector may hold
// twice what it uses), an object's map and an array's vector on the heap, a map node per
// member, a string on the heap with its text.
struct Shape {
  size_t bytes = 0;
  size_t depth = 0;
};

Shape shape_of(const char* text, size_t size) {
  size_t values = 1;
  size_t containers = 0;
  size_t members = 0;
  size_t strings = 0;
  size_t string_bytes = 0;
  size_t depth = 0;
  size_t deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      ++string_bytes;
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        ++strings;
        break;
      case '[':
      case '{':
        ++containers;
        ++values;
        if (++depth > deepest) deepest = depth;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      case ',':
        ++values;
        break;
      case ':':
        ++members;
        break;
      default:
        break;
    }
  }
  constexpr size_t kValue = 2 * sizeof(nlohmann::json);
  constexpr size_t kContainer = 64;
  constexpr size_t kMember = 96;
  constexpr size_t kString = 64;
  return {values * kValue + containers * kContainer + members * kMember + strings * kString +
              string_bytes * 2,
          deepest};
}

// What a JSON value of `string_bytes` of text takes in memory, roughly: the node, and a
// string's heap block.
size_t node_bytes(size_t string_bytes) {
  return sizeof(nlohmann::json) + (string_bytes > 0 ? string_bytes + 32 : 0);
}

// Counts what the document parsed from `size` bytes of `text` will take in `memory` against
// the state's memory limit (a text of a few MB can make a document ten times as large), after
// refusing one that nests deeper than kMaxDepth; `what` names the helper in both errors.
void measure(NativeMemory& memory, const std::string& what, const char* text, size_t size) {
  const Shape shape = shape_of(text, size);
  if (shape.depth > kMaxDepth) throw std::runtime_error(too_deep(what));
  memory.add(shape.bytes);
}

// Parses `size` bytes of `text` once measured. With `exceptions` false, text that is not JSON
// gives a discarded value instead of a parse_error.
nlohmann::json parse_counted(NativeMemory& memory, const std::string& what, const char* text,
                             size_t size, bool exceptions) {
  measure(memory, what, text, size);
  return nlohmann::json::parse(text, text + size, nullptr, exceptions);
}

// Both functions are wrapped in guarded<>, so they report errors by throwing: a Lua error
// (longjmp) would skip the destructors of the strings and documents they hold.
int decode(lua_State* L) {
  size_t size = 0;
  const char* text = luaL_checklstring(L, 1, &size);
  std::string why = push_parsed(L, {text, size}, NullAs::Sentinel, "json.decode");
  if (why.empty()) return 1;
  // nlohmann's message reads "[json.exception.parse_error.101] parse error at line 1, ...".
  const auto at = why.find("] ");
  if (at != std::string::npos) why = why.substr(at + 2);
  throw std::runtime_error("json.decode: not valid JSON: " + why);
}

[[noreturn]] void unusable_key(const std::string& where, const std::string& key_type) {
  throw std::runtime_error("json.encode: " + where +
                           " has a key that is neither a string nor a list position (a " +
                           key_type + ")");
}

// A table of the value being encoded, and how far its members are.
struct OpenTable {
  int index = 0;  // its absolute index on the Lua stack
  std::string where;
  nlohmann::json value;      // the array or object being filled
  lua_Integer length = 0;    // arrays: how many elements
  lua_Integer position = 0;  // arrays: the element being encoded
  std::string key;           // objects: the member being encoded
};

// A table is an array when marked as one or when its keys are exactly 1..n (n >= 1); an object
// when every key is a string; anything else is refused rather than guessed at. Opens it on
// `open` (an object with the nil key lua_next starts from on the stack).
void open_table(lua_State* L, int index, std::string where, std::vector<OpenTable>& open) {
  const lua_Integer length = static_cast<lua_Integer>(lua_rawlen(L, index));
  lua_Integer integer_keys = 0;
  bool string_keys = false;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      string_keys = true;
    } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 &&
               lua_tointeger(L, -1) <= length) {
      ++integer_keys;
    } else {
      const std::string key_type = luaL_typename(L, -1);
      lua_pop(L, 1);
      unusable_key(where, key_type);
    }
  }
  if (string_keys && integer_keys > 0) {
    throw std::runtime_error("json.encode: " + where + " mixes list positions and string keys");
  }
  if (integer_keys != length) {
    throw std::runtime_error("json.encode: " + where + " is a list with holes");
  }
  OpenTable& table = open.emplace_back();
  table.index = index;
  table.where = std::move(where);
  if (length > 0 || marked_as_array(L, index)) {
    table.value = nlohmann::json::array();
    table.length = length;
  } else {
    // nlohmann's object keeps its keys sorted, which makes the text stable.
    table.value = nlohmann::json::object();
    lua_pushnil(L);
  }
}

// The Lua value at `index` (absolute) as JSON when it is no table; a table is opened on `open`
// instead, and nullopt returned. The document's memory is counted in `memory` as it grows (a
// table may hold one large string many times over).
std::optional<nlohmann::json> start_json(lua_State* L, int index, std::string where,
                                         std::vector<OpenTable>& open, NativeMemory& memory) {
  if (open.size() > kMaxDepth || !lua_checkstack(L, 4)) {
    throw std::runtime_error("json.encode: " + where + " is nested more than " +
                             std::to_string(kMaxDepth) +
                             " levels deep, the most JSON helpers take (or refers to itself)");
  }
  switch (lua_type(L, index)) {
    case LUA_TNIL:
      return nlohmann::json(nullptr);
    case LUA_TBOOLEAN:
      return nlohmann::json(lua_toboolean(L, index) != 0);
    case LUA_TNUMBER: {
      if (lua_isinteger(L, index)) {
        return nlohmann::json(static_cast<int64_t>(lua_tointeger(L, index)));
      }
      const double number = lua_tonumber(L, index);
      if (!std::isfinite(number)) {
        throw std::runtime_error("json.encode: " + where + " is " +
                                 (std::isnan(number) ? "NaN" : "infinite") +
                                 ", which JSON cannot hold");
      }
      return nlohmann::json(number);
    }
    case LUA_TSTRING: {
      size_t size = 0;
      const char* text = lua_tolstring(L, index, &size);
      memory.add(node_bytes(size));
      return nlohmann::json(std::string(text, size));
    }
    case LUA_TLIGHTUSERDATA:
      if (lua_touserdata(L, index) == &kNullSentinel) return nlohmann::json(nullptr);
      break;
    case LUA_TTABLE:
      memory.add(node_bytes(0));
      open_table(L, index, std::move(where), open);
      return std::nullopt;
    default:
      break;
  }
  throw std::runtime_error("json.encode: " + where + " is a " + luaL_typename(L, index) +
                           ", which JSON cannot hold");
}

// Lua value at `index` -> JSON, depth first, its open tables on a vector rather than in C
// frames. `where` is the JSON path of the value ("$.a[2]") for messages.
nlohmann::json to_json(lua_State* L, int index, const std::string& where, NativeMemory& memory) {
  std::vector<OpenTable> open;
  std::optional<nlohmann::json> done = start_json(L, lua_absindex(L, index), where, open, memory);
  while (!open.empty()) {
    OpenTable& table = open.back();
    if (done) {
      // A member is encoded: its Lua value (a table or not) is on top of the stack.
      lua_pop(L, 1);
      if (table.value.is_array()) {
        table.value.push_back(std::move(*done));
      } else {
        table.value[table.key] = std::move(*done);
      }
      done.reset();
    }
    if (table.value.is_array()) {
      if (table.position < table.length) {
        lua_rawgeti(L, table.index, ++table.position);
        std::string member = table.where + "[" + std::to_string(table.position) + "]";
        done = start_json(L, lua_gettop(L), std::move(member), open, memory);
        continue;
      }
    } else if (lua_next(L, table.index) != 0) {
      // With its length: a key may hold a NUL ("\u0000" in the JSON it was decoded from).
      size_t key_size = 0;
      const char* key = lua_tolstring(L, -2, &key_size);
      table.key.assign(key, key_size);
      std::string member = table.where + "." + table.key;
      memory.add(node_bytes(table.key.size()) + 32);  // the key and the map's node
      done = start_json(L, lua_gettop(L), std::move(member), open, memory);
      continue;
    }
    done = std::move(table.value);
    open.pop_back();
  }
  return std::move(*done);
}

// Encoded with sorted keys and no spaces; a string that is not UTF-8 is refused (JSON text is
// UTF-8) rather than mangled.
int encode(lua_State* L) {
  luaL_checkany(L, 1);
  NativeMemory memory(L, "json.encode");
  const nlohmann::json j = to_json(L, 1, "$", memory);
  // The text: about as long as the document's strings, which it holds at once with them.
  memory.add(memory.held());
  std::string text;
  try {
    text = j.dump();
  } catch (const nlohmann::json::type_error&) {
    throw std::runtime_error("json.encode: a string is not valid UTF-8");
  }
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// json.array(t): marks t (default: a new table) as a JSON array, so that it encodes as [] even
// when empty.
int array(lua_State* L) {
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  mark_as_array(L, 1);
  return 1;
}

// Both documents are held at once, so both count against the memory limit; their comparison
// walks them by recursion, so neither may nest deeper than kMaxDepth. Both are measured before
// either is parsed, so that the answer does not depend on their order.
int equivalent(lua_State* L) {
  size_t a_size = 0;
  size_t b_size = 0;
  const char* a_text = luaL_checklstring(L, 1, &a_size);
  const char* b_text = luaL_checklstring(L, 2, &b_size);
  NativeMemory memory(L, "json.equivalent");
  measure(memory, "json.equivalent", a_text, a_size);
  measure(memory, "json.equivalent", b_text, b_size);
  const auto a = nlohmann::json::parse(a_text, a_text + a_size, nullptr, false);
  const auto b = nlohmann::json::parse(b_text, b_text + b_size, nullptr, false);
  lua_pushboolean(L, !a.is_discarded() && !b.is_discarded() && a == b ? 1 : 0);
  return 1;
}

}  // namespace

void push_json_document(lua_State* L, const nlohmann::json& document) {
  push(L, document);
}

void push_json_text(lua_State* L, const std::string& what, std::string_view text) {
  const std::string why = push_parsed(L, text, NullAs::Sentinel, what);
  if (!why.empty()) throw std::runtime_error(what + " is not valid JSON: " + why);
}

void push_json(lua_State* L, const std::string& text) {
  if (!push_parsed(L, text, NullAs::Absent, "reading the stored state").empty()) {
    throw std::runtime_error("the stored state is not valid JSON");
  }
}

namespace {

// The JSON object in `document`; an empty document is an empty object. Counted and bounded
// like the documents scripts give (`memory`), since it is written back as text by recursion.
nlohmann::json json_object(NativeMemory& memory, const std::string& document,
                           const std::string& what) {
  if (document.empty()) return nlohmann::json::object();
  nlohmann::json j = parse_counted(memory, what, document.data(), document.size(), false);
  if (j.is_discarded() || !j.is_object()) {
    throw std::runtime_error(what + " is not a JSON object, so it was not written by luaform");
  }
  return j;
}

}  // namespace

void push_json_member(lua_State* L, const std::string& document, const std::string& key,
                      const std::string& what) {
  NativeMemory memory(L, what);
  const nlohmann::json j = json_object(memory, document, what);
  const auto it = j.find(key);
  if (it == j.end()) {
    lua_pushnil(L);
  } else {
    push(L, *it);
  }
}

std::string with_json_member(lua_State* L, const std::string& document, const std::string& key,
                             int index, const std::string& what) {
  NativeMemory memory(L, what);
  nlohmann::json j = json_object(memory, document, what);
  if (lua_isnil(L, index)) {
    j.erase(key);
  } else {
    j[key] = to_json(L, index, "$." + key, memory);
  }
  try {
    return j.dump();
  } catch (const nlohmann::json::type_error&) {
    throw std::runtime_error(what + ": a string is not valid UTF-8");
  }
}

int open_json_module(lua_State* L) {
  const luaL_Reg functions[] = {{"decode", guarded<decode>},
                                {"encode", guarded<encode>},
                                {"array", guarded<array>},
                                {"equivalent", guarded<equivalent>},
                                {nullptr, nullptr}};
  luaL_newlib(L, functions);
  push_null_sentinel(L);
  lua_setfield(L, -2, "null");
  return 1;
}

}  // namespace luaform::lua
