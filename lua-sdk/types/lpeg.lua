---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `require("lpeg")`, built into the host: LPeg 1.0.2 (parsing expression
-- grammars). A match is bounded like Lua's string patterns: two seconds, the operation's
-- deadline and StopProvider end it with an error at the script's line.

---@alias lpeg.PatternLike lpeg.Pattern|string|integer|boolean|table|function

---A compiled pattern. `p1 * p2` is a sequence, `p1 + p2` an ordered choice, `p1 - p2` p1 where
---p2 does not match, `-p` not p, `#p` p without consuming, `p ^ n` at least n (or, negative,
---at most -n) repetitions, `p / x` a capture of what p gives, turned by x (a string, table or
---function).
---@class lpeg.Pattern
---@operator mul(lpeg.PatternLike): lpeg.Pattern
---@operator add(lpeg.PatternLike): lpeg.Pattern
---@operator sub(lpeg.PatternLike): lpeg.Pattern
---@operator unm: lpeg.Pattern
---@operator len: lpeg.Pattern
---@operator pow(integer): lpeg.Pattern
---@operator div(string|table|function|integer): lpeg.Pattern
local Pattern = {}

---The position after the match (or the captures), or nil when it fails.
---@param subject string
---@param init? integer
---@param ... any extra arguments, for lpeg.Carg
---@return any ...
function Pattern:match(subject, init, ...) end

---@class lpeg
local lpeg = {}

---@param pattern lpeg.PatternLike
---@param subject string
---@param init? integer
---@param ... any
---@return any ...
function lpeg.match(pattern, subject, init, ...) end

---"pattern" for a pattern, nil otherwise.
---@param value any
---@return "pattern"|nil
function lpeg.type(value) end

---@return string
function lpeg.version() end

---The backtrack stack's bound (400 entries unless set).
---@param max integer
function lpeg.setmaxstack(max) end

---A pattern from a string (itself), a number n (n characters; -n: fewer than n left), a
---boolean (always or never), a table (a grammar) or a function (a match-time test).
---@param value lpeg.PatternLike
---@return lpeg.Pattern
function lpeg.P(value) end

---Matches `pattern` just before the current position, without consuming.
---@param pattern lpeg.PatternLike
---@return lpeg.Pattern
function lpeg.B(pattern) end

---One character of the ranges given, each two characters: lpeg.R("az", "09").
---@param ... string
---@return lpeg.Pattern
function lpeg.R(...) end

---One character of the set.
---@param set string
---@return lpeg.Pattern
function lpeg.S(set) end

---A rule of the grammar it is in, by name or index.
---@param rule string|integer
---@return lpeg.Pattern
function lpeg.V(rule) end

---Patterns for the character classes of the C locale (alnum, alpha, digit, space, ...).
---@param into? table
---@return table<string, lpeg.Pattern>
function lpeg.locale(into) end

---The substring matched.
---@param pattern lpeg.PatternLike
---@return lpeg.Pattern
function lpeg.C(pattern) end

---The n-th extra argument of match.
---@param n integer
---@return lpeg.Pattern
function lpeg.Carg(n) end

---The values of the group capture named `name` most recently before.
---@param name string
---@return lpeg.Pattern
function lpeg.Cb(name) end

---The values given, matching the empty string.
---@param ... any
---@return lpeg.Pattern
function lpeg.Cc(...) end

---Folds the captures of `pattern` with `fn`.
---@param pattern lpeg.PatternLike
---@param fn fun(acc: any, ...: any): any
---@return lpeg.Pattern
function lpeg.Cf(pattern, fn) end

---The captures of `pattern` as one group, named or not.
---@param pattern lpeg.PatternLike
---@param name? string
---@return lpeg.Pattern
function lpeg.Cg(pattern, name) end

---The current position.
---@return lpeg.Pattern
function lpeg.Cp() end

---The substring matched, with each capture's value in place of what it matched.
---@param pattern lpeg.PatternLike
---@return lpeg.Pattern
function lpeg.Cs(pattern) end

---A table of the captures (named groups as its fields).
---@param pattern lpeg.PatternLike
---@return lpeg.Pattern
function lpeg.Ct(pattern) end

---At match time, `fn(subject, position, captures...)` decides: false or nil fails, true or a
---position continues; further values are its captures.
---@param pattern lpeg.PatternLike
---@param fn fun(subject: string, position: integer, ...: any): any, ...
---@return lpeg.Pattern
function lpeg.Cmt(pattern, fn) end

return lpeg
