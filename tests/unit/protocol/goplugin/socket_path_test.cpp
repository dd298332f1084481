#include "host/protocol/goplugin/socket_path.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "tests/unit/protocol/scoped_env.h"

namespace luaform::protocol {
namespace {

using testing::ScopedEnv;

TEST_CASE("the socket directory follows PLUGIN_UNIX_SOCKET_DIR, then TMPDIR, then /tmp") {
  ScopedEnv dir("PLUGIN_UNIX_SOCKET_DIR", "/var/run/x");
  ScopedEnv tmp("TMPDIR", "/scratch");
  CHECK(socket_base_directory() == "/var/run/x");
  {
    ScopedEnv no_dir("PLUGIN_UNIX_SOCKET_DIR", nullptr);
    CHECK(socket_base_directory() == "/scratch");
    ScopedEnv no_tmp("TMPDIR", "");
    CHECK(socket_base_directory() == "/tmp");
  }
}

TEST_CASE("the socket lives in a fresh private directory that is removed afterwards") {
  std::string error;
  std::string directory;
  {
    auto dir = SocketDirectory::create("/tmp", error);
    REQUIRE_MESSAGE(dir, error);
    directory = dir->directory();
    CHECK(directory.rfind("/tmp/", 0) == 0);
    CHECK(dir->socket_path().rfind(directory + "/", 0) == 0);
    struct stat st {};
    REQUIRE(::stat(directory.c_str(), &st) == 0);
    CHECK(S_ISDIR(st.st_mode));
    CHECK((st.st_mode & 0777) == 0700);
    auto other = SocketDirectory::create("/tmp", error);
    REQUIRE(other);
    CHECK(other->directory() != directory);
  }
  struct stat st {};
  CHECK(::stat(directory.c_str(), &st) != 0);
}

TEST_CASE("a PLUGIN_UNIX_SOCKET_DIR too deep for a socket path is an error that says so") {
  const std::string deep = "/tmp/" + std::string(120, 'd');
  ScopedEnv dir("PLUGIN_UNIX_SOCKET_DIR", deep.c_str());
  CHECK(socket_base_directory() == deep);
  std::string error;
  CHECK_FALSE(SocketDirectory::create(socket_base_directory(), error));
  CHECK(error.find(deep) != std::string::npos);
  CHECK(error.find("PLUGIN_UNIX_SOCKET_DIR") != std::string::npos);
  CHECK(error.find("107 bytes") != std::string::npos);
}

TEST_CASE("a TMPDIR too deep for a socket path gives /tmp") {
  const std::string deep = "/tmp/" + std::string(120, 'd');
  ScopedEnv no_dir("PLUGIN_UNIX_SOCKET_DIR", nullptr);
  ScopedEnv tmp("TMPDIR", deep.c_str());
  CHECK(socket_base_directory() == "/tmp");
  std::string error;
  auto created = SocketDirectory::create(socket_base_directory(), error);
  REQUIRE_MESSAGE(created, error);
  CHECK(created->socket_path().size() < 108);
}

TEST_CASE("an unusable base directory is an error, not a crash") {
  std::string error;
  auto dir = SocketDirectory::create("/nonexistent/luaform-test", error);
  CHECK_FALSE(dir);
  CHECK(error.find("/nonexistent/luaform-test") != std::string::npos);
}

}  // namespace
}  // namespace luaform::protocol
