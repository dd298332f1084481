// tf.fs: modes, directories, listings and stat, on a scratch directory; every failure names the
// path.
#include "host/lua/modules/fs_module.h"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "provider_dir.h"

using namespace luaform::lua::testing;

namespace {

// A Lua string literal of `path` under the scratch directory.
std::string quoted(const ProviderDir& scratch, const std::string& relative) {
  return "'" + (scratch.path() / relative).string() + "'";
}

unsigned mode_on_disk(const std::filesystem::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_mode & 07777;
}

}  // namespace

TEST_CASE("stat tells files from directories and missing paths, with mode, size and time") {
  ProviderDir scratch;
  scratch.write("a.txt", "hello");
  ::chmod((scratch.path() / "a.txt").c_str(), 0640);
  const std::string file = quoted(scratch, "a.txt");
  CHECK(evaluate("tf.fs.stat(" + file + ").type") == "file");
  CHECK(evaluate("tf.fs.stat(" + file + ").mode") == "0640");
  CHECK(evaluate("tf.fs.stat(" + file + ").size") == "5");
  // When the contents last changed, in seconds since 1970: set to a known moment here.
  const struct timespec times[2] = {{0, UTIME_OMIT}, {1700000000, 0}};
  REQUIRE(::utimensat(AT_FDCWD, (scratch.path() / "a.txt").c_str(), times, 0) == 0);
  CHECK(evaluate("tf.fs.stat(" + file + ").modified") == "1700000000");
  CHECK(evaluate("tf.fs.stat(" + quoted(scratch, "") + ").type") == "directory");
  CHECK(evaluate("tf.fs.stat(" + quoted(scratch, "missing") + ")") == "nil");
  CHECK(evaluate("tf.fs.stat(" + quoted(scratch, "a.txt/below") + ")") == "nil");
}

TEST_CASE("chmod sets the mode exactly and refuses what is not an octal mode") {
  ProviderDir scratch;
  scratch.write("a.txt", "x");
  const std::string file = quoted(scratch, "a.txt");
  CHECK(evaluate("tf.fs.chmod(" + file + ", '0600') or tf.fs.stat(" + file + ").mode") == "0600");
  CHECK(mode_on_disk(scratch.path() / "a.txt") == 0600);
  CHECK(evaluate("tf.fs.chmod(" + file + ", '0999')")
            .find("\"0999\" is not a file mode such as \"0644\"") != std::string::npos);
  CHECK(evaluate("tf.fs.chmod(" + quoted(scratch, "missing") + ", '0600')")
            .find("chmod " + (scratch.path() / "missing").string() +
                  ": No such file or directory") != std::string::npos);
}

TEST_CASE("mkdir creates missing parents with the mode, whatever the umask") {
  ProviderDir scratch;
  const mode_t old_umask = ::umask(077);
  const std::string result =
      evaluate("tf.fs.mkdir(" + quoted(scratch, "a/b/c") + ", '0751') or 'made'");
  ::umask(old_umask);
  CHECK(result == "made");
  CHECK(mode_on_disk(scratch.path() / "a") == 0751);
  CHECK(mode_on_disk(scratch.path() / "a/b/c") == 0751);
  // An existing directory is fine; a file in the way is not.
  CHECK(evaluate("tf.fs.mkdir(" + quoted(scratch, "a/b") + ", '0700') or 'again'") == "again");
  CHECK(mode_on_disk(scratch.path() / "a/b") == 0751);
  scratch.write("f", "x");
  CHECK(evaluate("tf.fs.mkdir(" + quoted(scratch, "f/g") + ", '0700')").find("mkdir ") !=
        std::string::npos);
}

TEST_CASE("rmdir removes an empty directory and names the one it cannot remove") {
  ProviderDir scratch;
  std::filesystem::create_directories(scratch.path() / "empty");
  scratch.write("full/x", "x");
  CHECK(evaluate("tf.fs.rmdir(" + quoted(scratch, "empty") + ") or 'gone'") == "gone");
  CHECK_FALSE(std::filesystem::exists(scratch.path() / "empty"));
  CHECK(evaluate("tf.fs.rmdir(" + quoted(scratch, "full") + ")")
            .find("rmdir " + (scratch.path() / "full").string() + ": Directory not empty") !=
        std::string::npos);
}

TEST_CASE("list gives a directory's names sorted, without . and .., and names what it cannot") {
  ProviderDir scratch;
  scratch.write("b.txt", "x");
  scratch.write("a.txt", "x");
  scratch.write("sub/c.txt", "x");
  scratch.write(".hidden", "x");
  CHECK(evaluate("table.concat(tf.fs.list(" + quoted(scratch, "") + "), ',')") ==
        ".hidden,a.txt,b.txt,sub");
  // Only the directory's own entries: what is in sub/ is not there.
  CHECK(evaluate("#tf.fs.list(" + quoted(scratch, "sub") + ")") == "1");
  std::filesystem::create_directories(scratch.path() / "empty");
  CHECK(evaluate("#tf.fs.list(" + quoted(scratch, "empty") + ")") == "0");
  CHECK(evaluate("tf.fs.list(" + quoted(scratch, "missing") + ")")
            .find("list " + (scratch.path() / "missing").string() +
                  ": No such file or directory") != std::string::npos);
  CHECK(evaluate("tf.fs.list(" + quoted(scratch, "a.txt") + ")")
            .find("list " + (scratch.path() / "a.txt").string() + ": Not a directory") !=
        std::string::npos);
}
