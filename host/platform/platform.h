// The few calls whose spelling differs between POSIX systems and Windows (where the release
// host for windows_amd64 is built with mingw-w64). Everything else the host uses is standard
// C++ or the same on both.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

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

// glibc grows the heap of a thread's arena a few pages at a time, with an mprotect call and a
// trip through sysmalloc for each step: loading a provider of 1,000 resource types (on its
// own thread) spent a fifth of its time there. Asking for 8 MiB more at each growth makes
// those steps rare; pages still cost memory only once they are touched.
inline void tune_allocator() {
#if defined(__GLIBC__)
  mallopt(M_TOP_PAD, 8 << 20);
#endif
}

}  // namespace luaform::platform
