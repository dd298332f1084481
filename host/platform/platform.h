// The few calls whose spelling differs between POSIX systems and Windows (where the release
// host for windows_amd64 is built with mingw-w64). Everything else the host uses is standard
// C++ or the same on both.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <system_error>

#if defined(_WIN32)
#include <direct.h>
#include <process.h>
#else
#include <unistd.h>
#endif
#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <pthread.h>
#endif

namespace luaform::platform {

// The broken-down UTC time of `seconds`.
inline std::tm utc_time(std::time_t seconds) {
  std::tm utc{};
#if defined(_WIN32)
  gmtime_s(&utc, &seconds);
#else
  gmtime_r(&seconds, &utc);
#endif
  return utc;
}

// The seconds since the epoch of a broken-down UTC time (timegm), -1 when out of range.
inline std::time_t utc_seconds(std::tm& utc) {
#if defined(_WIN32)
  return _mkgmtime(&utc);
#else
  return timegm(&utc);
#endif
}

// mkdir(2); Windows has no permission bits beyond read-only, so `mode` is left to chmod.
inline int make_directory(const char* path, [[maybe_unused]] mode_t mode) {
#if defined(_WIN32)
  return ::_mkdir(path);
#else
  return ::mkdir(path, mode);
#endif
}

inline long process_id() {
#if defined(_WIN32)
  return static_cast<long>(::_getpid());
#else
  return static_cast<long>(::getpid());
#endif
}

// The path of the running binary, or an empty path when the system does not say (Linux reads
// /proc/self/exe, macOS asks dyld).
inline std::filesystem::path executable_path() {
#if defined(_WIN32)
  // Not asked on Windows: the CLI starts a plugin by its full path, which argv[0] holds.
  return {};
#elif defined(__APPLE__)
  uint32_t size = 0;
  ::_NSGetExecutablePath(nullptr, &size);
  std::string path(size, '\0');
  if (::_NSGetExecutablePath(path.data(), &size) != 0) return {};
  path.resize(path.find('\0') == std::string::npos ? path.size() : path.find('\0'));
  std::error_code ec;
  auto resolved = std::filesystem::weakly_canonical(path, ec);
  return ec ? std::filesystem::path(path) : resolved;
#else
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : path;
#endif
}

// The CLI that started this process, as an id no other process has had since the system
// booted (its pid and, on Linux, the clock tick it started at), or "" when the system does not
// say: the CLI starts a provider process per graph walk, and those of one command share it.
inline std::string parent_command_id() {
#if defined(_WIN32)
  return {};
#else
  const long parent = static_cast<long>(::getppid());
  std::string id = std::to_string(parent);
#if defined(__linux__)
  // Field 22 of /proc/PID/stat, after the command name in parentheses (which may hold spaces).
  std::FILE* stat = std::fopen(("/proc/" + id + "/stat").c_str(), "r");
  if (stat == nullptr) return {};
  char text[1024] = {};
  const size_t n = std::fread(text, 1, sizeof text - 1, stat);
  std::fclose(stat);
  const std::string fields(text, n);
  size_t at = fields.rfind(')');
  for (int field = 2; at != std::string::npos && field < 22; ++field) at = fields.find(' ', at + 1);
  if (at == std::string::npos) return {};
  id += "-" + fields.substr(at + 1, fields.find(' ', at + 1) - at - 1);
#endif
  return id;
#endif
}

// True for the first process of the command `parent_command_id` names to claim `what` (a short
// name of letters, digits and '-'), false for the others; true whenever it cannot tell (no
// id, no temporary directory). A claim is a file in the temporary directory, created only if
// it is not there; claims older than a day are removed on the way.
inline bool first_in_command(const std::string& what) {
  const std::string command = parent_command_id();
  if (command.empty()) return true;
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) return true;
  const std::string prefix = "luaform-claim-";
  const auto now = std::filesystem::file_time_type::clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.path().filename().string().starts_with(prefix)) continue;
    std::error_code stale;
    if (now - entry.last_write_time(stale) > std::chrono::hours(24) && !stale) {
      std::filesystem::remove(entry.path(), stale);
    }
  }
  const std::filesystem::path claim = dir / (prefix + command + "-" + what);
  std::FILE* file = std::fopen(claim.string().c_str(), "wx");  // C11: fails if it exists
  if (file == nullptr) return !std::filesystem::exists(claim, ec);
  std::fclose(file);
  return true;
}

// glibc grows the heap of a thread's arena a few pages at a time, with an mprotect call and a
// trip through sysmalloc for each step: loading a provider of 1,000 resource types (on its
// own thread) spent a fifth of its time there. Asking for 8 MiB more at each growth makes
// those steps rare; pages still cost memory only once they are touched.
inline void tune_allocator() {
#if defined(__GLIBC__)
  mallopt(M_TOP_PAD, 8 << 20);
#endif
}

// Threads started after this get the stack the development host's threads have (glibc takes
// the 8 MiB of `ulimit -s`), whichever libc and linker made the host: musl, which the static
// Linux release hosts use, gives 128 KiB unless the executable's PT_GNU_STACK asks for more
// (zig's linker does, today), and scripts run on gRPC's threads and the load
// thread, where Lua's own bound on nested calls (200 C levels, each a few hundred bytes of
// frames) and the bounded native walks of script data must fit as they do in development.
inline void widen_thread_stacks() {
#if defined(__linux__)
  constexpr size_t kStack = size_t{8} << 20;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return;
  size_t current = 0;
  if (pthread_attr_getstacksize(&attr, &current) == 0 && current < kStack &&
      pthread_attr_setstacksize(&attr, kStack) == 0) {
    pthread_setattr_default_np(&attr);
  }
  pthread_attr_destroy(&attr);
#endif
}

}  // namespace luaform::platform
