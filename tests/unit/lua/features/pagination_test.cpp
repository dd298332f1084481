// tf.http.paginate over a client that serves three pages of a listing from memory: the pages it
// asks for, and `each`, which sees items as their pages arrive and can stop the reading.
#include <doctest/doctest.h>

#include <string>

#include "provider_dir.h"

using namespace luaform::lua::testing;

namespace {

// A Lua expression: paginate over pages {1, 2}, {3, 4}, {5} linked by Link headers with
// `options`, giving "items read | paths asked".
std::string paginated(const std::string& options) {
  return R"((function()
  local pages = {
    ["/items"] = { items = { 1, 2 }, next = "/items?page=2" },
    ["/items?page=2"] = { items = { 3, 4 }, next = "/items?page=3" },
    ["/items?page=3"] = { items = { 5 } },
  }
  local asked = {}
  local client = {}
  function client:get(target)
    asked[#asked + 1] = target
    local page = pages[target]
    local link = page.next and ("<" .. page.next .. '>; rel="next"') or nil
    return page.items, { headers = { link = link } }
  end
  local items = tf.http.paginate(client, "/items", )" +
         options + R"()
  return table.concat(items, ",") .. " | " .. table.concat(asked, " ")
end)())";
}

}  // namespace

TEST_CASE("paginate reads every page the Link headers lead to") {
  CHECK(evaluate(paginated("{}")) == "1,2,3,4,5 | /items /items?page=2 /items?page=3");
}

TEST_CASE("each sees every item in order; false stops before the next item and page") {
  CHECK(evaluate(paginated("{ each = function(item) return item < 3 end }")) ==
        "1,2,3 | /items /items?page=2");
  CHECK(evaluate(paginated("{ each = function(item) return item ~= 2 end }")) == "1,2 | /items");
  // Only false stops: nil (no return) goes on.
  CHECK(evaluate(paginated("{ each = function() end }")) ==
        "1,2,3,4,5 | /items /items?page=2 /items?page=3");
}
