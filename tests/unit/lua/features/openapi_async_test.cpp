// An operation answered 202 Accepted, followed to the end of the work it started
// (lua-sdk/luaform_openapi_async.lua), on a client double that records the requests and
// answers as asynchronous APIs do: a task link in the body (Pulp), a monitor in Location with
// Retry-After (RFC 9110's pattern), Operation-Location (Azure), a task that fails.
#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "loopback_peer.h"
#include "provider_dir.h"

using namespace luaform;
using namespace luaform::lua::testing;

namespace {

// A Lua chunk that calls operation `op` through luaform_openapi_api with an http double whose
// answers are `answers` (a Lua list of { status, json, headers }), then evaluates `result`
// (which may use `sent`, the request lines, and `object`, `response`, what the call returned).
std::string followed(
    const std::string& answers, const std::string& result,
    const std::string& op = "{ method = 'post', path = '/repos', id = 'createRepo' }",
    const std::string& poll = "nil") {
  return evaluate(R"((function()
  local api = require("luaform_openapi_api")
  local answers = )" +
                  answers + R"(
  local sent = {}
  local http = {
    request = function(_, r)
      sent[#sent + 1] = r.method .. " " .. (r.url or r.path)
        .. (r.query and next(r.query) and "?key=" .. r.query.key or "")
      local answer = table.remove(answers, 1)
      assert(answer, "no answer left for " .. sent[#sent])
      answer.headers = answer.headers or {}
      return answer
    end,
  }
  local client = api.new({}, http, { key = "k1" }, "http://api.test/v2", )" +
                  poll + R"()
  local object, response = api.call(client, )" +
                  op + R"(, {}, { name = "x" })
  sent = table.concat(sent, ", ")
  return )" + result +
                  R"(
end)())");
}

// A provider served from the description `document` (as api.yaml), with `options` more of
// tf.openapi.provider's options after the document's.
struct Served {
  ProviderDir dir;
  std::shared_ptr<engine::ProviderLogic> logic;
  explicit Served(const std::string& document, const std::string& options = "") {
    dir.write("api.yaml", document);
    dir.write("provider.lua",
              "local tf = require(\"luaform\")\nreturn tf.openapi.provider { document = "
              "\"api.yaml\"" +
                  (options.empty() ? "" : ", " + options) + " }\n");
    logic = dir.load();
  }
};

}  // namespace

TEST_CASE("a 202 with a task link in its body is followed until the task completes") {
  // Pulp's way: {"task": "/pulp/api/v3/tasks/ID/"}, a task whose state moves from waiting to
  // completed and names what it made in created_resources.
  const std::string answers = R"({
    { status = 202, json = { task = "/v2/tasks/1/" } },
    { status = 200, json = { state = "waiting" } },
    { status = 200, json = { state = "running" } },
    { status = 200, json = { state = "completed", created_resources = { "/v2/repos/r7/" } } },
  })";
  CHECK(followed(answers, "sent") ==
        "POST /repos?key=k1, GET http://api.test/v2/tasks/1/?key=k1, "
        "GET http://api.test/v2/tasks/1/?key=k1, GET http://api.test/v2/tasks/1/?key=k1");
  CHECK(followed(answers, "response.created .. ' ' .. response.finished.state") ==
        "/v2/repos/r7/ completed");
  // The call answers with the 202's own body, as ever; the work's end is beside it.
  CHECK(followed(answers, "object.task .. ' ' .. response.status") == "/v2/tasks/1/ 202");
}

TEST_CASE("a monitor in Location is asked again after what Retry-After says, then its 200") {
  const std::string answers = R"({
    { status = 202, headers = { location = "https://jobs.test/monitor/5" } },
    { status = 202, headers = { ["retry-after"] = "0" } },
    { status = 200, json = { status = "Succeeded", resourceLocation = "/v2/repos/r8" } },
  })";
  // A monitor on another host is asked only where the author names its origin, and gets no
  // API key in its query there.
  const std::string jobs = "{ origins = { 'https://jobs.test' } }";
  const std::string op = "{ method = 'post', path = '/repos', id = 'createRepo' }";
  CHECK(followed(answers, "sent", op, jobs) ==
        "POST /repos?key=k1, GET https://jobs.test/monitor/5, GET https://jobs.test/monitor/5");
  CHECK(followed(answers, "response.created", op, jobs) == "/v2/repos/r8");
  // An answer with no state at all is the end of the work.
  CHECK(followed(R"({
    { status = 202, headers = { ["operation-location"] = "/v2/ops/9", location = "/v2/x" } },
    { status = 200, json = { name = "x" } },
  })",
                 "sent .. ' ' .. tostring(response.created)") ==
        "POST /repos?key=k1, GET http://api.test/v2/ops/9?key=k1 nil");
}

TEST_CASE("a status link off the API's origin is an error, and nothing is sent there") {
  // The conventional fields may hold what a user stored (a webhook's href): following one to
  // its host would hand it the client's credentials.
  const std::string answers = R"({
    { status = 202, json = { href = "https://collector.example/hook" } },
    { status = 200, json = { state = "completed" } },
  })";
  const std::string refused = followed(answers, "sent");
  CHECK_MESSAGE(refused.ends_with(": POST /repos (createRepo) answered 202, and its status "
                                  "link https://collector.example/hook is not on the API's "
                                  "origin (http://api.test): it is not asked with the "
                                  "provider's credentials; name its origin in the poll "
                                  "option's origins to follow it"),
                refused);
  CHECK(refused.find("GET") == std::string::npos);
  // The same host on another scheme or port is another origin; a Location that moves the
  // status off the API's origin midway is refused the same way.
  CHECK(followed(R"({ { status = 202, json = { task = "https://api.test/v2/tasks/1" } } })", "sent")
            .find("is not on the API's origin") != std::string::npos);
  const std::string moved = followed(R"({
    { status = 202, json = { task = "/v2/tasks/2" } },
    { status = 202, headers = { location = "http://api.test:8080/v2/tasks/2" } },
  })",
                                     "sent");
  CHECK_MESSAGE(moved.find("link http://api.test:8080/v2/tasks/2 is not on the API's origin") !=
                    std::string::npos,
                moved);
  // Origins compare without case, as hosts do.
  CHECK(followed(R"({
    { status = 202, json = { task = "HTTP://API.test/v2/tasks/3" } },
    { status = 200, json = { state = "done" } },
  })",
                 "sent") == "POST /repos?key=k1, GET HTTP://API.test/v2/tasks/3?key=k1");
}

TEST_CASE("work that fails, or a status that answers an error, is an error naming both") {
  // Raised at the line of the call (the chunk's own), with the operation, the status link and
  // the start of its answer.
  const std::string failed = followed(R"({
    { status = 202, json = { task = "/v2/tasks/3/" } },
    { status = 200, json = { state = "failed", error = { description = "disk full" } },
      body = '{"state":"failed","error":{"description":"disk full"}}' },
  })",
                                      "sent");
  CHECK_MESSAGE(failed.starts_with("error: resource_probe.lua:"), failed);
  CHECK_MESSAGE(
      failed.ends_with(": POST /repos (createRepo) answered 202, and its work ended failed "
                       "(http://api.test/v2/tasks/3/): {\"state\":\"failed\",\"error\":{"
                       "\"description\":\"disk full\"}}"),
      failed);
  const std::string missing = followed(R"({
    { status = 202, json = { task = "/v2/tasks/4/" } },
    { status = 404, body = "no such task" },
  })",
                                       "sent");
  CHECK_MESSAGE(missing.ends_with(": POST /repos (createRepo) answered 202, and its status at "
                                  "http://api.test/v2/tasks/4/ answered 404: no such task"),
                missing);
}

TEST_CASE("the author says where the status is, or that a 202 ends the work") {
  const std::string answers = R"({
    { status = 202, json = { id = "j1", job = "/v2/jobs/j1" } },
    { status = 200, json = { phase = "Pending" } },
    { status = 200, json = { phase = "Ready" } },
  })";
  CHECK(followed(answers, "sent .. ' ' .. response.finished.phase",
                 "{ method = 'post', path = '/repos', id = 'createRepo' }",
                 "{ link = 'job', state = 'phase', done = { 'Ready' } }") ==
        "POST /repos?key=k1, GET http://api.test/v2/jobs/j1?key=k1, "
        "GET http://api.test/v2/jobs/j1?key=k1 Ready");
  CHECK(followed(answers, "sent .. ' ' .. tostring(response.finished)",
                 "{ method = 'post', path = '/repos', id = 'createRepo' }",
                 "false") == "POST /repos?key=k1 nil");
  // Without a link anywhere the answer is returned as it is.
  CHECK(followed("{ { status = 202, json = { name = 'x' } } }", "sent") == "POST /repos?key=k1");
}

TEST_CASE("the poll option is checked where the provider is declared") {
  const char* cases[][2] = {
      {"poll = 3", "poll must be false or a table such as { link = \"task\", state = \"state\" }"},
      {"poll = { lnk = 'task' }",
       "poll has no option \"lnk\" (its options: done, failed, link, origins, state)"},
      {"poll = { origins = 'https://jobs.test' }",
       "poll.origins must be a list of origins such as \"https://jobs.example.com\""},
      {"poll = { origins = { 'https://jobs.test/tasks' } }",
       "poll.origins: \"https://jobs.test/tasks\" is not an origin (a scheme and a host, such "
       "as \"https://jobs.example.com\")"},
      {"poll = { done = 'ok' }", "poll.done must be a list of states"},
      {"resources = { pet = { poll = { state = 1 } } }", "poll.state must be a field name"},
      {"http = 8", "http must be a table of tf.http.client options, such as { retries = 8 }"},
      {"http = { retires = 8 }",
       "tf.openapi.provider: http: unknown option \"retires\" (valid options: connect_timeout, "
       "retries, retry_wait_max, retry_wait_min, timeout)"},
      {"http = { retries = 'many' }",
       "tf.openapi.provider: http: retries must be a whole number from 0 to 100"},
      {"http = { retry_wait_min = 5, retry_wait_max = 1 }",
       "tf.openapi.provider: http: retry_wait_max is shorter than retry_wait_min"},
  };
  for (const auto& c : cases) {
    CAPTURE(c[0]);
    Served served("openapi: 3.0.3\ninfo: { title: Jobs, version: '1' }\npaths: {}\n", c[0]);
    const std::string text = all_text(served.logic->load_diagnostics());
    CHECK_MESSAGE(text.find(c[1]) != std::string::npos, text);
  }
}

namespace {

const char* kRepos = R"(openapi: 3.0.3
info: { title: Repos, version: '1' }
paths:
  /repos:
    post:
      operationId: createRepo
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Repo' }
      responses:
        '202':
          description: the task that makes it
          content:
            application/json:
              schema: { $ref: '#/components/schemas/TaskLink' }
  /repos/{repo_id}:
    parameters:
      - { name: repo_id, in: path, required: true, schema: { type: string } }
    get:
      operationId: getRepo
      responses:
        '200':
          description: the repository
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Repo' }
components:
  schemas:
    Repo:
      type: object
      required: [name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
        state: { type: string, readOnly: true }
    TaskLink:
      type: object
      properties:
        task: { type: string }
)";

// Answers each request on one kept-alive connection with the next of `answers` (status line,
// headers and JSON body), recording the request lines.
class ScriptedApi {
 public:
  explicit ScriptedApi(std::vector<std::pair<std::string, std::string>> answers)
      : peer_(std::in_place, [this, answers](int fd) {
          for (const auto& [status, body] : answers) {
            lines_.push_back(read_line(fd));
            size_t length = 0;
            for (std::string header = read_line(fd); header != "\r"; header = read_line(fd)) {
              if (header.starts_with("Content-Length: ")) length = std::stoul(header.substr(16));
            }
            std::string ignored(length, '\0');
            for (size_t done = 0; done < length;) {
              const ssize_t n = ::read(fd, ignored.data() + done, length - done);
              if (n <= 0) return;
              done += static_cast<size_t>(n);
            }
            write_all(fd, "HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\n" +
                              "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
          }
        }) {}
  int port() const { return peer_->port(); }
  // The request lines, once the peer's thread has ended (joined: no race with it).
  std::vector<std::string> requests() {
    peer_.reset();
    return lines_;
  }

 private:
  std::vector<std::string> lines_;
  std::optional<Peer> peer_;
};

}  // namespace

namespace {

// Creates an object of `type_name` (with `planned` attributes) through the mapped type of the
// description `document`, against `api`, and hands what the create left to `check`.
void create(ScriptedApi& api, const char* document, const std::string& type_name,
            const engine::Value::Object& planned,
            const std::function<void(const engine::ResourceData&)>& check,
            const std::string& options = "env_prefix = \"REPOS\"") {
  Served served(document, options);
  auto& logic = served.logic;
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  const engine::Type config = logic->schema().provider.block.implied_type();
  const std::string base = "http://127.0.0.1:" + std::to_string(api.port()) + "/api";
  REQUIRE(
      !logic->configure(engine::Value::object(config, {{"base_url", engine::Value::string(base)}}))
           .has_errors());
  Instance type(*logic, type_name);
  const engine::Value values = type.object(planned);
  engine::ResourceData d(type.schema, type.null(), values, values);
  const auto diags = logic->open_session()->call(engine::Operation::Create, type_name, d);
  REQUIRE_MESSAGE(!diags.has_errors(), all_text(diags));
  check(d);
}

}  // namespace

TEST_CASE("a mapped create answered 202 takes the id of what its task made, then reads it") {
  ScriptedApi api({
      {"202 Accepted", R"({"task": "/tasks/1/"})"},
      {"200 OK", R"({"state": "running"})"},
      {"200 OK", R"({"state": "completed", "created_resources": ["/api/repos/r7/"]})"},
      {"200 OK", R"({"id": "r7", "name": "x", "state": "ready"})"},
  });
  create(api, kRepos, "test_repo", {{"name", engine::Value::string("x")}},
         [](const engine::ResourceData& d) {
           // The task's id is not the repository's: the id is the last segment of what it
           // made. The task link is read against the server's root, as a browser reads it.
           CHECK(d.id() == "r7");
           CHECK(d.get("state") == engine::Value::string("ready"));
         });
  CHECK(api.requests() ==
        std::vector<std::string>{"POST /api/repos HTTP/1.1\r", "GET /tasks/1/ HTTP/1.1\r",
                                 "GET /tasks/1/ HTTP/1.1\r", "GET /api/repos/r7 HTTP/1.1\r"});
}

TEST_CASE("the provider's http option sets how its shared client tries again") {
  // Five answers of 503 (Prefect's while its database is locked): the default four retries
  // would give up; six, a hundredth of a second apart, reach the task.
  std::vector<std::pair<std::string, std::string>> answers(
      5, {"503 Service Unavailable", R"({"exception_message": "Service Unavailable"})"});
  answers.push_back({"202 Accepted", R"({"task": "/tasks/1/"})"});
  answers.push_back(
      {"200 OK", R"({"state": "completed", "created_resources": ["/api/repos/r7/"]})"});
  answers.push_back({"200 OK", R"({"id": "r7", "name": "x", "state": "ready"})"});
  ScriptedApi api(answers);
  create(
      api, kRepos, "test_repo", {{"name", engine::Value::string("x")}},
      [](const engine::ResourceData& d) { CHECK(d.id() == "r7"); },
      R"(env_prefix = "REPOS", http = { retries = 6, retry_wait_min = 0.01, retry_wait_max = 0.02 })");
  CHECK(api.requests().size() == 8);
}

namespace {

// Pulp's way: objects named by links (pulp_href), the item path only a parameter, operationIds
// that pair a collection's create with the item's read.
const char* kLinked = R"(openapi: 3.0.3
info: { title: Pulp, version: '3' }
paths:
  /pulp/api/v3/distributions/file/file/:
    post:
      operationId: distributions_file_file_create
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/file.FileDistribution' }
      responses:
        '202':
          description: a task
          content:
            application/json:
              schema: { $ref: '#/components/schemas/AsyncOperationResponse' }
  '{file_file_distribution_href}':
    parameters:
      - { name: file_file_distribution_href, in: path, required: true, schema: { type: string } }
    get:
      operationId: distributions_file_file_read
      responses:
        '200':
          description: the distribution
          content:
            application/json:
              schema: { $ref: '#/components/schemas/file.FileDistributionResponse' }
    delete:
      operationId: distributions_file_file_delete
      responses:
        '202':
          description: a task
          content:
            application/json:
              schema: { $ref: '#/components/schemas/AsyncOperationResponse' }
components:
  schemas:
    file.FileDistribution:
      type: object
      required: [name, base_path]
      properties:
        name: { type: string }
        base_path: { type: string }
    file.FileDistributionResponse:
      type: object
      properties:
        pulp_href: { type: string, readOnly: true }
        name: { type: string }
        base_path: { type: string }
    AsyncOperationResponse:
      type: object
      properties:
        task: { type: string }
)";

}  // namespace

TEST_CASE("an object named by a link has the whole link as its id, sent as it is") {
  ScriptedApi api({
      {"202 Accepted", R"({"task": "/pulp/api/v3/tasks/t1/"})"},
      {"200 OK",
       R"({"state": "completed", "created_resources": ["/pulp/api/v3/distributions/file/file/d1/"]})"},
      {"200 OK",
       R"({"pulp_href": "/pulp/api/v3/distributions/file/file/d1/", "name": "n", "base_path": "b"})"},
  });
  create(api, kLinked, "test_file_file_distribution",
         {{"name", engine::Value::string("n")}, {"base_path", engine::Value::string("b")}},
         [](const engine::ResourceData& d) {
           const auto link = engine::Value::string("/pulp/api/v3/distributions/file/file/d1/");
           CHECK(d.id() == link.as_string());
           CHECK(d.get("pulp_href") == link);
         });
  // The link is a path from the server's root, not escaped and not below the base URL's path
  // (where the description's own paths are).
  CHECK(api.requests() ==
        std::vector<std::string>{"POST /api/pulp/api/v3/distributions/file/file/ HTTP/1.1\r",
                                 "GET /pulp/api/v3/tasks/t1/ HTTP/1.1\r",
                                 "GET /pulp/api/v3/distributions/file/file/d1/ HTTP/1.1\r"});
}

TEST_CASE("--check says why an operation on a link is left alone") {
  // kLinked with an action on the distribution and a read no create pairs with.
  std::string document = kLinked;
  document.replace(document.find("components:"), 0, R"(  '{file_file_distribution_href}sync/':
    post:
      operationId: distributions_file_file_sync
      responses: { '202': { description: a task } }
  '{task_href}':
    get:
      operationId: tasks_read
      responses: { '200': { description: the task } }
)");
  Served served(document);
  auto& logic = served.logic;
  REQUIRE_MESSAGE(logic->load_diagnostics().empty(), all_text(logic->load_diagnostics()));
  std::string notes;
  for (const std::string& note : logic->load_notes()) notes += note + "\n";
  CHECK_MESSAGE(
      notes.find("api.yaml: 1 resources, 0 data sources, 0 list resources") != std::string::npos,
      notes);
  CHECK_MESSAGE(
      notes.find("paths.{file_file_distribution_href}sync/.post "
                 "(distributions_file_file_sync): no type: an action on an object "
                 "named by its link; a script calls it by name (api:call)") != std::string::npos,
      notes);
  CHECK_MESSAGE(notes.find("paths.{task_href}.get (tasks_read): no type: an object named by its "
                           "link whose collection has no create to pair with") != std::string::npos,
                notes);
}
