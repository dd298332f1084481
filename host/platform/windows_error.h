// The system's text for a Windows error code (GetLastError, WSAGetLastError), as one line: the
// words FormatMessage gives without their closing period and line end, or "error N" when it has
// none. For the host's Windows-only sources; it brings <windows.h> in, so platform.h does not
// include it.
#pragma once

#if defined(_WIN32)
#include <windows.h>

#include <string>

namespace luaform::platform {

inline std::string windows_error_text(DWORD error) {
  char* text = nullptr;
  const DWORD length = ::FormatMessageA(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, error, 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string out = length > 0 ? std::string(text, length) : "error " + std::to_string(error);
  if (text != nullptr) ::LocalFree(text);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == '.')) {
    out.pop_back();
  }
  return out;
}

}  // namespace luaform::platform
#endif
