// libcurl, opened with dlopen the first time a script makes an HTTP request instead of linked.
// Linked, libcurl and the thirty libraries it needs (GnuTLS, Kerberos, LDAP, ...) are loaded
// and initialised at every start of the plugin, about 6 ms of a cold start that the CLI waits
// for several times per command, and most providers' runs never send a request.
#pragma once

#include <curl/curl.h>

namespace luaform::lua::http {

// The libcurl functions the HTTP client calls, resolved from the loaded library.
struct CurlLibrary {
  CURLcode (*global_init)(long flags);
  CURL* (*easy_init)();
  void (*easy_cleanup)(CURL* handle);
  void (*easy_reset)(CURL* handle);
  CURLcode (*easy_setopt)(CURL* handle, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL* handle);
  CURLcode (*easy_getinfo)(CURL* handle, CURLINFO info, ...);
  const char* (*easy_strerror)(CURLcode code);
  curl_slist* (*slist_append)(curl_slist* list, const char* text);
  void (*slist_free_all)(curl_slist* list);
};

// The system's libcurl (libcurl.so.4), loaded and initialised once; later calls return the
// same table. Throws std::runtime_error naming the library and the package that provides it
// when it cannot be loaded, and again on every later call.
const CurlLibrary& curl_library();

// Loads the library at `path` (a soname or a file) and resolves every function of
// CurlLibrary, or throws std::runtime_error naming `path` and what is missing. The library
// stays loaded for the life of the process. curl_library() is this with libcurl.so.4.
CurlLibrary load_curl_library(const char* path);

}  // namespace luaform::lua::http
