// The sandbox's string.find, match, gmatch and gsub: the same results and errors as Lua's own
// on every case below and on thousands of generated ones (compared side by side with a state
// that has Lua's own string library), and an end, at the budget, the operation's deadline or
// a stop, for patterns that backtrack without end.
#include "host/lua/core/string_patterns.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "host/lua/core/guarded.h"
#include "host/lua/core/sandbox.h"
#include "limited_run.h"

using namespace luaform::lua;

namespace {

// Runs one pattern function on the arguments and describes what it gave: each result with its
// type, or the error without its position (Lua's own functions have none; ours name the line).
constexpr const char* kProbe = R"(
local kind, s, p, a, b = ...
local function described(ok, ...)
  local out = { tostring(ok) }
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    if not ok then v = tostring(v):gsub("^[^\n]-:%d+: ", "") end
    out[#out + 1] = type(v) .. ":" .. tostring(v)
  end
  return table.concat(out, "|")
end
if kind == "find" then return described(pcall(string.find, s, p, a, b)) end
if kind == "match" then return described(pcall(string.match, s, p, a)) end
if kind == "gmatch" then
  return described(pcall(function()
    local seen = {}
    for x, y in string.gmatch(s, p, a) do
      seen[#seen + 1] = tostring(x) .. "," .. tostring(y)
      if #seen > 100 then break end
    end
    return table.concat(seen, ";")
  end))
end
local replacements = {
  text = "<%0|%1>", percent = "%%", bad = "%x", number = 7,
  table = { a = "A", b = false, ["1"] = "one" },
  call = function(x, y) if x == "b" then return nil end return "[" .. tostring(x) .. tostring(y) .. "]" end,
  wrong = function() return {} end,
}
return described(pcall(string.gsub, s, p, replacements[a], b))
)";

// The probe's answer for `args` in `L` (whose pattern functions are Lua's or ours).
std::string probe(lua_State* L, const std::vector<std::string>& args, lua_Integer a = 0,
                  bool with_a = false, lua_Integer b = 0, bool with_b = false) {
  REQUIRE(luaL_loadstring(L, kProbe) == LUA_OK);
  lua_pushstring(L, args[0].c_str());
  lua_pushlstring(L, args[1].data(), args[1].size());
  lua_pushlstring(L, args[2].data(), args[2].size());
  if (args.size() > 3) {
    lua_pushstring(L, args[3].c_str());
  } else if (with_a) {
    lua_pushinteger(L, a);
  } else {
    lua_pushnil(L);
  }
  if (with_b) {
    lua_pushinteger(L, b);
  } else {
    lua_pushnil(L);
  }
  REQUIRE(lua_pcall(L, 5, 1, 0) == LUA_OK);
  std::string described = lua_tostring(L, -1);
  lua_pop(L, 1);
  return described;
}

struct Pair {
  Pair() : reference(luaL_newstate()), ours(new_sandboxed_state(&limits)) {
    luaL_openlibs(reference.get());
  }
  void same(const std::vector<std::string>& args, lua_Integer a = 0, bool with_a = false,
            lua_Integer b = 0, bool with_b = false) {
    const std::string expected = probe(reference.get(), args, a, with_a, b, with_b);
    const std::string got = probe(ours.get(), args, a, with_a, b, with_b);
    INFO(args[0] << "(\"" << args[1] << "\", \"" << args[2] << "\"" << (with_a ? ", a" : "")
                 << (args.size() > 3 ? ", " + args[3] : "") << ")");
    CHECK(got == expected);
  }
  RunLimits limits;
  StatePtr reference;
  StatePtr ours;
};

}  // namespace

TEST_CASE("the pattern functions give what Lua's own give, case by case") {
  Pair pair;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hello world", "o w"},
      {"hello world", "l+"},
      {"hello world", "^h"},
      {"hello world", "^w"},
      {"hello world", "d$"},
      {"hello world", "o$x"},
      {"hello world", "(l)(l)"},
      {"hello world", "()ll()"},
      {"key = value", "(%w+)%s*=%s*(%w+)"},
      {"  trim  ", "^%s*(.-)%s*$"},
      {"aaa", "a-"},
      {"aaa", "a-$"},
      {"aaa", "a*"},
      {"aaa", "a?a?a?a"},
      {"x(a(b)c)y", "%b()"},
      {"THE (quick) fox", "%f[%a]%a+"},
      {"abcabc", "(abc)%1"},
      {"abab", "(ab)%2"},
      {"a.b", "."},
      {"a.b", "%."},
      {"a]b", "[]]"},
      {"a^b", "[%^]"},
      {"a-b", "[a-]"},
      {"a-b", "[%-]"},
      {"2024-01-05", "(%d+)-(%d+)-(%d+)"},
      {"x", "[^%s]"},
      {"", ""},
      {"", "a*"},
      {"abc", ""},
      {"abc", "%"},
      {"abc", "[a"},
      {"abc", "(a"},
      {"abc", "a)"},
      {"abc", "%1"},
      {"abc", "%f"},
      {"abc", "%b"},
      {"abc", "%ba"},
      {std::string("a\0b", 3), "%z"},
      {std::string("a\0b", 3), "\0"},
      {"café", "[\x80-\xff]+"},
      {"x=1, y=2", "(%w)=(%d)"},
      {"AbC", "%u%l%u"},
      {"tab\there", "%c"},
      {"a b", "%S+"},
      {"$x", "^$"},
      {"((()))", "%b()"},
      {"[[x]]", "%b[]"},
      {"f(a, g(b))", "%b()"},
      {"aXb", "%W"},
      {"0x1F", "%x+"},
      {"a,b,,c", "([^,]*)"},
  };
  for (const auto& [s, p] : cases) {
    for (const char* kind : {"find", "match", "gmatch"}) pair.same({kind, s, p});
    for (const char* replacement : {"text", "percent", "bad", "number", "table", "call", "wrong"}) {
      pair.same({"gsub", s, p, replacement});
    }
  }
  // Start positions, plain finds, and gsub's count of replacements.
  for (lua_Integer init : {-20, -3, -1, 0, 1, 2, 5, 12, 13, 30}) {
    pair.same({"find", "hello world", "o"}, init, true);
    pair.same({"find", "hello world", "l+"}, init, true);
    pair.same({"find", "hello world", ".-"}, init, true, 1, true);
    pair.same({"match", "hello world", "(o)"}, init, true);
    pair.same({"gmatch", "hello world", "%a+"}, init, true);
  }
  pair.same({"find", "a+b", "+"}, 1, true, 1, true);
  for (lua_Integer most : {-1, 0, 1, 2, 100}) {
    pair.same({"gsub", "aaa", "a", "text"}, 0, false, most, true);
  }
  // Deep recursion fails alike ("pattern too complex").
  std::string deep;
  for (int i = 0; i < 300; ++i) deep += "a?";
  pair.same({"match", std::string(300, 'a'), deep});
}

TEST_CASE("the pattern functions give what Lua's own give on generated patterns and subjects") {
  Pair pair;
  const std::vector<std::string> items = {
      "a",     "b",     ".", "%a", "%d", "%s", "%w", "%p",   "%A",     "%S",     "[ab]", "[^a]",
      "[a-c]", "[%d_]", "(", ")",  "()", "%1", "%2", "%b()", "%f[%w]", "%f[%W]", "*",    "+",
      "-",     "?",     "^", "$",  "%",  "[",  "]",  "_",    " ",      "1"};
  const std::string alphabet = std::string("ab1 _()[]%c", 11) + std::string(1, '\0');
  std::mt19937 random(20261125);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random); };
  const char* kinds[] = {"find", "match", "gmatch", "gsub"};
  const char* replacements[] = {"text", "table", "call", "percent"};
  for (int round = 0; round < 4000; ++round) {
    std::string pattern;
    for (size_t n = pick(7) + 1; n > 0; --n) pattern += items[pick(items.size())];
    std::string subject;
    for (size_t n = pick(13); n > 0; --n) subject += alphabet[pick(alphabet.size())];
    const std::string kind = kinds[pick(4)];
    if (kind == "gsub") {
      pair.same({kind, subject, pattern, replacements[pick(4)]});
    } else {
      pair.same({kind, subject, pattern});
    }
  }
}

TEST_CASE("the pattern functions give what Lua's own give from any start position") {
  Pair pair;
  // gmatch from past the end tries nowhere in Lua 5.4, not even at the end: no empty match of
  // "" or "a*", and no error for a malformed pattern (ours once tried once more at the end).
  for (lua_Integer init : {3, 4, 5, 6, 100, -1, -4, -5}) {
    for (const char* p : {"", "a*", "()", "x?", "$", "^", "(", "%", "[a"}) {
      pair.same({"gmatch", "abc", p}, init, true);
      pair.same({"gmatch", "", p}, init, true);
    }
  }
  // Generated, with start positions around both ends of the subject.
  const std::vector<std::string> items = {"a", ".", "%a", "()", "(", ")",    "*",      "-", "?",
                                          "$", "^", "%",  "[",  "]", "[^b]", "%f[%w]", "b"};
  const std::string alphabet = "ab ()";
  std::mt19937 random(20260317);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random); };
  const char* kinds[] = {"find", "match", "gmatch"};
  for (int round = 0; round < 4000; ++round) {
    std::string pattern;
    for (size_t n = pick(4); n > 0; --n) pattern += items[pick(items.size())];
    std::string subject;
    for (size_t n = pick(6); n > 0; --n) subject += alphabet[pick(alphabet.size())];
    const auto length = static_cast<lua_Integer>(subject.size());
    const lua_Integer init = static_cast<lua_Integer>(pick(2 * subject.size() + 7)) - length - 3;
    pair.same({kinds[pick(3)], subject, pattern}, init, true);
  }
}

TEST_CASE("a pattern that backtracks without end gives up at the budget, the deadline or a stop") {
  RunLimits limits;
  limits.memory_limit = 0;
  StatePtr state = new_sandboxed_state(&limits);
  lua_State* L = state.get();
  const char* catastrophic =
      "return string.rep('a', 40):find(string.rep('a?', 40) .. string.rep('a', 40))";
  auto run = [&](const char* code) {
    const testing::RunEnd end = testing::run_to_end(L, code, nullptr);
    CHECK(end.took < std::chrono::seconds(120));  // about a second; the sanitizers slow it down
    CHECK(!end.error.empty());
    return end.error;
  };
  // No deadline: the fixed budget ends it, at the script's line.
  const std::string budget = run(catastrophic);
  CHECK(budget.find("[string \"return string.rep") == 0);
  CHECK(budget.find(":1: pattern too complex for this subject: matching gave up after") !=
        std::string::npos);
  // A deadline that passes first.
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  limits.deadline_message = "create did not finish within its timeout of 100ms";
  CHECK(run(catastrophic).find("create did not finish within its timeout") != std::string::npos);
  limits.deadline.reset();
  // A stop, from another thread, while it runs: in gsub and gmatch too.
  std::atomic<uint64_t> stops{0};
  limits.stops = &stops;
  limits.stops_before = 0;
  for (const char* code :
       {catastrophic,
        "return (string.rep('a', 40)):gsub(string.rep('a?', 40) .. string.rep('a', 40), 'x')",
        "for x in string.gmatch(string.rep('a', 40), string.rep('a?', 40) .. string.rep('a', "
        "40)) do end"}) {
    stops = 0;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      stops = 1;
    });
    const std::string stopped = run(code);
    stopper.join();
    CHECK(stopped.find("stopped by StopProvider") != std::string::npos);
  }
}
