#include "host/engine/schema/spelling.h"

#include <doctest/doctest.h>

#include "scripted_logic.h"

using namespace luaform::engine;
using namespace luaform::engine::testing;

namespace {

// A language of the test's own, installed for one test case and then taken away again (the
// other tests read messages in the contract's words alone).
struct InstalledSpelling {
  InstalledSpelling() {
    install_spelling([](Hint hint, std::string_view subject) -> std::string {
      switch (hint) {
        case Hint::ImportById:
          return "importable: by_id";
        case Hint::SetIdentity:
          return "identity." + std::string(subject) + " := ...";
        default:
          return "";
      }
    });
  }
  ~InstalledSpelling() { install_spelling(nullptr); }
  InstalledSpelling(const InstalledSpelling&) = delete;
  InstalledSpelling& operator=(const InstalledSpelling&) = delete;
};

}  // namespace

TEST_CASE("a hint reads in the installed language, and in the contract's words alone without") {
  CHECK(spelled(Hint::ImportById).empty());
  CHECK(written_as(Hint::SetIdentity, "path").empty());
  CHECK(for_example(Hint::ImportById).empty());
  {
    const InstalledSpelling installed;
    CHECK(spelled(Hint::ImportById) == "importable: by_id");
    CHECK(written_as(Hint::SetIdentity, "path") == " (identity.path := ...)");
    CHECK(for_example(Hint::ImportById) == " (for example importable: by_id)");
    CHECK(written_as(Hint::DynamicType).empty());  // a hint the language does not spell
  }
  CHECK(spelled(Hint::ImportById).empty());
}

TEST_CASE("an RPC's message shows the installed spelling of what it asks for") {
  auto logic = std::make_shared<ScriptedLogic>();
  logic->declared.resources["test_file"] = file_schema();
  logic->declared.resources["test_file"].importable = false;
  ProviderService service(logic);
  ImportRequest req;
  req.type_name = "test_file";
  req.id = "/a";
  const auto words = [&] { return service.import_resource_state(req).diagnostics.items()[0]; };
  CHECK(words().detail == "Its script declares no import function.");
  const InstalledSpelling installed;
  CHECK(words().summary == "Resource test_file does not support import");
  CHECK(words().detail ==
        "Its script declares no import function (for example importable: by_id).");
}
