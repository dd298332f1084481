#include "host/lua/modules/curl_library.h"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace http = luaform::lua::http;

namespace {

std::string failure_of(const char* path) {
  try {
    http::load_curl_library(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the system's libcurl is opened on first use, with every function the client calls") {
  const http::CurlLibrary& curl = http::curl_library();
  CHECK(&curl == &http::curl_library());  // loaded once
  CURL* handle = curl.easy_init();
  REQUIRE(handle != nullptr);
  CHECK(curl.easy_setopt(handle, CURLOPT_URL, "http://127.0.0.1:1/") == CURLE_OK);
  curl_slist* headers = curl.slist_append(nullptr, "Accept: application/json");
  CHECK(headers != nullptr);
  curl.slist_free_all(headers);
  curl.easy_reset(handle);
  curl.easy_cleanup(handle);
  CHECK(std::string(curl.easy_strerror(CURLE_COULDNT_CONNECT)).find("connect") !=
        std::string::npos);
}

TEST_CASE("a libcurl that cannot be loaded is an error saying how to install it") {
  const std::string why = failure_of("libcurl-that-is-not-installed.so.4");
  CHECK(why.find("HTTP requests need libcurl") != std::string::npos);
  CHECK(why.find("libcurl-that-is-not-installed.so.4") != std::string::npos);
  CHECK(why.find("apt-get install libcurl4") != std::string::npos);
}

TEST_CASE("a library that is not libcurl is refused, naming the missing function") {
  // libc is loaded in every process and has none of curl's functions.
  const std::string why = failure_of("libc.so.6");
  CHECK(why.find("libc.so.6 has no function curl_global_init") != std::string::npos);
}
