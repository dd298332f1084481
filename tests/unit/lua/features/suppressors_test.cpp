// tf.suppress's ready-made diff_suppress functions, as scripts call them.
#include <doctest/doctest.h>

#include <chrono>

#include "provider_dir.h"

using namespace luaform::lua::testing;

TEST_CASE("surrounding_space: leading and trailing whitespace does not count, inner does") {
  CHECK(evaluate("tf.suppress.surrounding_space(nil, '  ssh-rsa AAAA\\n', 'ssh-rsa AAAA')") ==
        "true");
  CHECK(evaluate("tf.suppress.surrounding_space(nil, ' a b ', 'a  b')") == "false");
  CHECK(evaluate("tf.suppress.surrounding_space(nil, ' \\t\\n', '')") == "true");
  CHECK(evaluate("tf.suppress.surrounding_space(nil, 'x', 'y')") == "false");
  CHECK(evaluate("tf.suppress.surrounding_space(nil, 'x', 42)") == "false");
}

TEST_CASE("surrounding_space takes time linear in the value's length") {
  // 300,000 characters, most of them one run of spaces inside the value: minutes of plan
  // when trimming was quadratic (and now past the pattern functions' budget, an error, had it
  // stayed so).
  const auto started = std::chrono::steady_clock::now();
  CHECK(evaluate("tf.suppress.surrounding_space(nil, 'x' .. string.rep(' ', 300000) .. 'x', "
                 "' x' .. string.rep(' ', 300000) .. 'x\\n')") == "true");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}
