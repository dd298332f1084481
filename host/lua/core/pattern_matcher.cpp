#include "host/lua/core/pattern_matcher.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <stdexcept>
#include <string>

#include "host/lua/core/sandbox.h"

namespace luaform::lua {
namespace {

constexpr char kEscape = '%';

int byte(const char* p) {
  return static_cast<unsigned char>(*p);
}

[[noreturn]] void malformed(const std::string& message) {
  throw std::runtime_error(message);
}

// Whether character `c` is in class `%cl` (a letter: a, c, d, g, l, p, s, u, w, x, z, or its
// upper case for the complement); any other `cl` stands for itself.
bool in_class(int c, int cl) {
  bool in = false;
  switch (std::tolower(cl)) {
    case 'a':
      in = std::isalpha(c) != 0;
      break;
    case 'c':
      in = std::iscntrl(c) != 0;
      break;
    case 'd':
      in = std::isdigit(c) != 0;
      break;
    case 'g':
      in = std::isgraph(c) != 0;
      break;
    case 'l':
      in = std::islower(c) != 0;
      break;
    case 'p':
      in = std::ispunct(c) != 0;
      break;
    case 's':
      in = std::isspace(c) != 0;
      break;
    case 'u':
      in = std::isupper(c) != 0;
      break;
    case 'w':
      in = std::isalnum(c) != 0;
      break;
    case 'x':
      in = std::isxdigit(c) != 0;
      break;
    case 'z':
      in = c == 0;
      break;  // Lua 5.1's class for the zero byte, which 5.4 keeps
    default:
      return cl == c;
  }
  return std::isupper(cl) != 0 ? !in : in;
}

// Whether `c` is in the set [...] from `p` (at '[') to `close` (at its ']').
bool in_set(int c, const char* p, const char* close) {
  bool wanted = true;
  if (*(p + 1) == '^') {
    wanted = false;
    ++p;
  }
  while (++p < close) {
    if (*p == kEscape) {
      ++p;
      if (in_class(c, byte(p))) return wanted;
    } else if (*(p + 1) == '-' && p + 2 < close) {
      p += 2;
      if (byte(p - 2) <= c && c <= byte(p)) return wanted;
    } else if (byte(p) == c) {
      return wanted;
    }
  }
  return !wanted;
}

}  // namespace

void MatchBudget::check() const {
  if (auto reason = limit_reached(L)) throw std::runtime_error(*reason);
  if (std::chrono::steady_clock::now() - started > kTimeLimit) {
    throw std::runtime_error(
        "pattern too complex for this subject: matching gave up after " +
        std::to_string(kTimeLimit.count() / 1000) + " s and " + std::to_string(steps) +
        " steps (a pattern that backtracks this much can run for hours; simplify it or match "
        "in parts)");
  }
}

bool is_plain_pattern(const char* pattern, size_t length) {
  for (size_t i = 0; i < length; ++i) {
    if (std::strchr("^$*+?.([%-", pattern[i]) != nullptr && pattern[i] != '\0') return false;
  }
  return true;
}

const char* PatternMatch::class_end(const char* p) const {
  switch (*p++) {
    case kEscape:
      if (p == pattern_end_) malformed("malformed pattern (ends with '%')");
      return p + 1;
    case '[':
      if (*p == '^') ++p;
      // The first character of a set is never its end: "[]]" is the set of "]".
      do {
        if (p == pattern_end_) malformed("malformed pattern (missing ']')");
        if (*(p++) == kEscape && p < pattern_end_) ++p;
      } while (*p != ']');
      return p + 1;
    default:
      return p;
  }
}

bool PatternMatch::single_match(const char* s, const char* p, const char* ep) const {
  if (s >= subject_end_) return false;
  const int c = byte(s);
  switch (*p) {
    case '.':
      return true;
    case kEscape:
      return in_class(c, byte(p + 1));
    case '[':
      return in_set(c, p, ep - 1);
    default:
      return byte(p) == c;
  }
}

const char* PatternMatch::max_expand(const char* s, const char* p, const char* ep) {
  ptrdiff_t count = 0;
  while (single_match(s + count, p, ep)) {
    budget_->step();
    ++count;
  }
  // The longest run first, then one shorter at a time.
  for (; count >= 0; --count) {
    if (const char* end = match(s + count, ep + 1)) return end;
  }
  return nullptr;
}

const char* PatternMatch::min_expand(const char* s, const char* p, const char* ep) {
  for (;;) {
    if (const char* end = match(s, ep + 1)) return end;
    if (!single_match(s, p, ep)) return nullptr;
    ++s;  // one more, then try the rest again
  }
}

const char* PatternMatch::start_capture(const char* s, const char* p, ptrdiff_t what) {
  if (level_ >= kMaxCaptures) malformed("too many captures");
  captures_[level_] = {s, what};
  ++level_;
  const char* end = match(s, p);
  if (end == nullptr) --level_;  // undo the capture
  return end;
}

int PatternMatch::open_capture() const {
  for (int level = level_ - 1; level >= 0; --level) {
    if (captures_[level].length == kCaptureUnfinished) return level;
  }
  malformed("invalid pattern capture");
}

const char* PatternMatch::end_capture(const char* s, const char* p) {
  const int level = open_capture();
  captures_[level].length = s - captures_[level].init;
  const char* end = match(s, p);
  if (end == nullptr) captures_[level].length = kCaptureUnfinished;  // undo
  return end;
}

const char* PatternMatch::match_balance(const char* s, const char* p) {
  if (p >= pattern_end_ - 1) malformed("malformed pattern (missing arguments to '%b')");
  if (s >= subject_end_ || *s != *p) return nullptr;
  const char open = *p;
  const char close = *(p + 1);
  int depth = 1;
  while (++s < subject_end_) {
    budget_->step();
    if (*s == close) {
      if (--depth == 0) return s + 1;
    } else if (*s == open) {
      ++depth;
    }
  }
  return nullptr;
}

const char* PatternMatch::match_back_reference(const char* s, int digit) {
  const int level = digit - '1';
  if (level < 0 || level >= level_ || captures_[level].length == kCaptureUnfinished) {
    malformed("invalid capture index %" + std::to_string(level + 1));
  }
  const auto length = static_cast<size_t>(captures_[level].length);
  if (static_cast<size_t>(subject_end_ - s) >= length &&
      std::memcmp(captures_[level].init, s, length) == 0) {
    return s + length;
  }
  return nullptr;
}

const char* PatternMatch::match(const char* s, const char* p) {
  if (depth_-- == 0) malformed("pattern too complex");
  // A pattern item that is neither the last nor quantified continues in this frame (the loop)
  // instead of a deeper call.
  while (p != pattern_end_) {
    budget_->step();
    switch (*p) {
      case '(':
        s = *(p + 1) == ')' ? start_capture(s, p + 2, kCapturePosition)
                            : start_capture(s, p + 1, kCaptureUnfinished);
        ++depth_;
        return s;
      case ')':
        s = end_capture(s, p + 1);
        ++depth_;
        return s;
      case '$':
        if (p + 1 == pattern_end_) {
          ++depth_;
          return s == subject_end_ ? s : nullptr;
        }
        break;  // a '$' elsewhere is an ordinary character
      case kEscape:
        switch (*(p + 1)) {
          case 'b':
            s = match_balance(s, p + 2);
            if (s == nullptr) {
              ++depth_;
              return nullptr;
            }
            p += 4;
            continue;
          case 'f': {
            p += 2;
            if (*p != '[') malformed("missing '[' after '%f' in pattern");
            const char* ep = class_end(p);
            const int previous = s == subject_ ? '\0' : byte(s - 1);
            const int current = s < subject_end_ ? byte(s) : '\0';
            if (!in_set(previous, p, ep - 1) && in_set(current, p, ep - 1)) {
              p = ep;
              continue;
            }
            ++depth_;
            return nullptr;
          }
          case '0':
          case '1':
          case '2':
          case '3':
          case '4':
          case '5':
          case '6':
          case '7':
          case '8':
          case '9':
            s = match_back_reference(s, byte(p + 1));
            if (s == nullptr) {
              ++depth_;
              return nullptr;
            }
            p += 2;
            continue;
          default:
            break;
        }
        break;
      default:
        break;
    }
    // A single character class, possibly quantified.
    const char* ep = class_end(p);
    const bool matched = single_match(s, p, ep);
    const char* end = nullptr;
    switch (*ep) {
      case '?':
        if (matched && (end = match(s + 1, ep + 1)) != nullptr) break;
        p = ep + 1;
        continue;
      case '+':
        end = matched ? max_expand(s + 1, p, ep) : nullptr;
        break;
      case '*':
        end = max_expand(s, p, ep);
        break;
      case '-':
        end = min_expand(s, p, ep);
        break;
      default:
        if (!matched) {
          ++depth_;
          return nullptr;
        }
        ++s;
        p = ep;
        continue;
    }
    ++depth_;
    return end;
  }
  ++depth_;
  return s;
}

ptrdiff_t PatternMatch::push_capture(lua_State* L, int i, const char* s, const char* e) const {
  if (i >= level_) {
    if (i != 0) malformed("invalid capture index %" + std::to_string(i + 1));
    lua_pushlstring(L, s, static_cast<size_t>(e - s));
    return e - s;
  }
  const Capture& capture = captures_[i];
  if (capture.length == kCaptureUnfinished) malformed("unfinished capture");
  if (capture.length == kCapturePosition) {
    lua_pushinteger(L, static_cast<lua_Integer>(capture.init - subject_) + 1);
  } else {
    lua_pushlstring(L, capture.init, static_cast<size_t>(capture.length));
  }
  return capture.length;
}

int PatternMatch::push_captures(lua_State* L, const char* s, const char* e) const {
  const int count = (level_ == 0 && s != nullptr) ? 1 : level_;
  luaL_checkstack(L, count, "too many captures");
  for (int i = 0; i < count; ++i) push_capture(L, i, s, e);
  return count;
}

}  // namespace luaform::lua
