// Lua's pattern language (the patterns of string.find, match, gmatch and gsub; see the Lua 5.4
// manual, section 6.4.1) matched by backtracking, like Lua's own matcher, but on a budget: the
// matcher counts its steps, looks at the state's limits (StopProvider, the operation's timeout)
// and the clock every few thousand of them, and gives up after a fixed time. Lua's own runs inside
// one C call that neither the timeout nor a stop reaches: a pattern that backtracks exponentially
// (("a?"):rep(40) .. ("a"):rep(40) against 40 a's) ran for hours.
#pragma once

#include <lua.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace luaform::lua {

// How long one call of a pattern function may go on. Failing throws std::runtime_error (the
// functions run inside `guarded`, which turns it into a Lua error at the script's line). The
// bound is time, not steps: a step that scans a long set ("[...]" of 20 KB) is worth thousands,
// and an allowance of steps that grew with the subject let one call run for minutes.
struct MatchBudget {
  // What one call may take at most, besides the running call's own deadline.
  static constexpr std::chrono::milliseconds kTimeLimit{2000};

  lua_State* L;
  uint64_t steps = 0;
  std::chrono::steady_clock::time_point started;

  explicit MatchBudget(lua_State* state) : L(state), started(std::chrono::steady_clock::now()) {}
  void step() {
    if ((++steps & kCheckEvery) == 0) check();
  }

 private:
  // Steps between two looks at the clock and the limits: well under a millisecond of matching.
  static constexpr uint64_t kCheckEvery = (1u << 12) - 1;
  void check() const;
};

inline constexpr ptrdiff_t kCaptureUnfinished = -1;
inline constexpr ptrdiff_t kCapturePosition = -2;
inline constexpr int kMaxCaptures = 32;

// One match attempt's state. Trivially destructible on purpose: the pattern functions keep it
// in frames that Lua errors may cross.
class PatternMatch {
 public:
  struct Capture {
    const char* init;
    ptrdiff_t length;  // or kCaptureUnfinished / kCapturePosition
  };

  PatternMatch(const char* subject, size_t subject_length, const char* pattern,
               size_t pattern_length, MatchBudget* budget)
      : subject_(subject),
        subject_end_(subject + subject_length),
        pattern_end_(pattern + pattern_length),
        budget_(budget) {}

  // Where a match of the pattern from `p` (inside the pattern given) starting at `s` ends, or
  // nullptr when there is none. Captures are reset first.
  const char* match_at(const char* s, const char* p) {
    level_ = 0;
    depth_ = kMaxDepth;
    return match(s, p);
  }

  int levels() const { return level_; }
  const Capture& capture(int i) const { return captures_[i]; }
  const char* subject() const { return subject_; }
  const char* subject_end() const { return subject_end_; }

  // Pushes capture `i` of the match s..e (the whole match when the pattern has no captures
  // and i is 0); returns its length, or kCapturePosition for a position capture (pushed as
  // an integer).
  ptrdiff_t push_capture(lua_State* L, int i, const char* s, const char* e) const;
  // Pushes every capture (or the whole match s..e when there are none and `s` is given);
  // returns how many.
  int push_captures(lua_State* L, const char* s, const char* e) const;

 private:
  // Lua's limit on the matcher's recursion, kept so that deep patterns fail alike.
  static constexpr int kMaxDepth = 200;

  const char* match(const char* s, const char* p);
  const char* class_end(const char* p) const;
  bool single_match(const char* s, const char* p, const char* ep) const;
  const char* max_expand(const char* s, const char* p, const char* ep);
  const char* min_expand(const char* s, const char* p, const char* ep);
  const char* start_capture(const char* s, const char* p, ptrdiff_t what);
  const char* end_capture(const char* s, const char* p);
  const char* match_balance(const char* s, const char* p);
  const char* match_back_reference(const char* s, int digit);
  int open_capture() const;

  const char* subject_;
  const char* subject_end_;
  const char* pattern_end_;
  MatchBudget* budget_;
  int level_ = 0;
  int depth_ = kMaxDepth;
  Capture captures_[kMaxCaptures] = {};
};

// True when `pattern` has none of the characters that make it more than a plain string.
bool is_plain_pattern(const char* pattern, size_t length);

}  // namespace luaform::lua
