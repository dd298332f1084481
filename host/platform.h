// The few calls whose spelling differs between POSIX systems and Windows (where the release
// host for windows_amd64 is built with mingw-w64). Everything else the host uses is standard
// C++ or the same on both.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <ctime>

#if defined(_WIN32)
#include <direct.h>
#include <process.h>
#else
#include <unistd.h>
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

}  // namespace luaform::platform
