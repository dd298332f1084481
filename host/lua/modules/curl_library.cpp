#include "host/lua/modules/curl_library.h"

#if !defined(_WIN32)
#include <dlfcn.h>
#endif

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

namespace luaform::lua::http {
namespace {

[[maybe_unused]] constexpr const char* kSoname = "libcurl.so.4";

#if !defined(_WIN32)
// Sets `slot` to the function `name` of `library`, or throws naming both.
template <typename Function>
void resolve(void* library, const char* path, const char* name, Function*& slot) {
  void* symbol = ::dlsym(library, name);
  if (symbol == nullptr) {
    throw std::runtime_error(std::string("HTTP requests need libcurl, but ") + path +
                             " has no function " + name);
  }
  // dlsym returns functions as void*; POSIX guarantees the round trip.
  slot =
      reinterpret_cast<Function*>(symbol);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

#endif

}  // namespace

#if defined(_WIN32)
// Windows hosts are release builds, which link libcurl (LUAFORM_CURL_LINKED).
CurlLibrary load_curl_library(const char* path) {
  throw std::runtime_error(std::string("this host cannot open ") + path +
                           ": it is built with libcurl linked in");
}
#else
CurlLibrary load_curl_library(const char* path) {
  void* library = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = ::dlerror();
    throw std::runtime_error(std::string("HTTP requests need libcurl, which could not be "
                                         "loaded: ") +
                             (why != nullptr ? why : path) +
                             " (on Debian or Ubuntu: apt-get install libcurl4)");
  }
  CurlLibrary curl{};
  resolve(library, path, "curl_global_init", curl.global_init);
  resolve(library, path, "curl_easy_init", curl.easy_init);
  resolve(library, path, "curl_easy_cleanup", curl.easy_cleanup);
  resolve(library, path, "curl_easy_reset", curl.easy_reset);
  resolve(library, path, "curl_easy_setopt", curl.easy_setopt);
  resolve(library, path, "curl_easy_perform", curl.easy_perform);
  resolve(library, path, "curl_easy_getinfo", curl.easy_getinfo);
  resolve(library, path, "curl_easy_strerror", curl.easy_strerror);
  resolve(library, path, "curl_slist_append", curl.slist_append);
  resolve(library, path, "curl_slist_free_all", curl.slist_free_all);
  return curl;
}
#endif

#if defined(LUAFORM_CURL_LINKED)
namespace {
// A release host links libcurl statically (host/release_libraries.cmake): the table is the
// linked functions, and nothing is opened.
CurlLibrary linked_curl_library() {
  return CurlLibrary{&curl_global_init,   &curl_easy_init,     &curl_easy_cleanup,
                     &curl_easy_reset,    &curl_easy_setopt,   &curl_easy_perform,
                     &curl_easy_getinfo,  &curl_easy_strerror, &curl_slist_append,
                     &curl_slist_free_all};
}
}  // namespace
#endif

const CurlLibrary& curl_library() {
  // Loaded under the once_flag, so concurrent first requests load it once; a failure is kept
  // and thrown again, so every request that cannot be made says why.
  static std::once_flag once;
  static std::optional<CurlLibrary> loaded;
  static std::string failure;
  std::call_once(once, [] {
    try {
#if defined(LUAFORM_CURL_LINKED)
      CurlLibrary curl = linked_curl_library();
#else
      CurlLibrary curl = load_curl_library(kSoname);
#endif
      // Not thread-safe in older libcurl; done once, before any handle exists.
      const CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
      if (code != CURLE_OK) {
        throw std::runtime_error(std::string("libcurl failed to initialise: ") +
                                 curl.easy_strerror(code));
      }
      loaded = curl;
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  if (!loaded) throw std::runtime_error(failure);
  return *loaded;
}

}  // namespace luaform::lua::http
