#include "host/lua/modules/http_module.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "host/engine/value/utf8.h"
#include "host/lua/core/duration_argument.h"
#include "host/lua/core/frozen_tables.h"
#include "host/lua/core/guarded.h"
#include "host/lua/core/json_conversion.h"
#include "host/lua/core/option_fields.h"
#include "host/lua/core/sandbox.h"
#include "host/lua/core/script_where.h"
#include "host/lua/modules/http_client.h"
#include "host/lua/modules/http_oauth2.h"

namespace luaform::lua {
namespace {

constexpr const char* kClientMetatable = "luaform.http.client";
constexpr const char* kErrorMetatable = "luaform.http.error";
// Bodies quoted in error messages are cut here: enough to read an API's error, not a page.
constexpr size_t kQuotedBodyLimit = 512;

// A response body the client takes at most, unless its max_response_bytes says otherwise.
constexpr size_t kDefaultMaxResponseBytes = size_t{64} << 20;

struct ClientOptions {
  std::string base_url;
  http::Headers headers;
  std::optional<std::pair<std::string, std::string>> basic_auth;
  http::Milliseconds timeout{60000};
  http::Milliseconds connect_timeout{10000};
  http::RetryPolicy retry;
  http::Tls tls;
  std::string proxy;
  size_t max_response_bytes = kDefaultMaxResponseBytes;
  std::optional<http::ClientCredentials> oauth2;
};

struct Client {
  ClientOptions options;
  http::Session session;
  std::optional<http::AccessToken> token;  // with the oauth2 option
};

// ---- reading options ---------------------------------------------------------------------

// A duration: a number of seconds or a string such as "30s" or "2m".
std::optional<http::Milliseconds> duration_field(lua_State* L, int table, const char* name) {
  lua_getfield(L, table, name);
  std::optional<http::Milliseconds> out;
  if (!lua_isnil(L, -1)) {
    const double seconds = duration_seconds(L, -1, std::string("http: ") + name);
    out = http::Milliseconds(static_cast<int64_t>(seconds * 1000));
  }
  lua_pop(L, 1);
  return out;
}

std::optional<size_t> byte_count_field(lua_State* L, int table, const char* name) {
  lua_getfield(L, table, name);
  std::optional<size_t> out;
  if (!lua_isnil(L, -1)) {
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1) {
      lua_pop(L, 1);
      throw std::runtime_error(std::string("http: ") + name + " must be a whole number of bytes");
    }
    out = static_cast<size_t>(lua_tointeger(L, -1));
  }
  lua_pop(L, 1);
  return out;
}

std::optional<int> count_field(lua_State* L, int table, const char* name) {
  lua_getfield(L, table, name);
  std::optional<int> out;
  if (!lua_isnil(L, -1)) {
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 || lua_tointeger(L, -1) > 100) {
      lua_pop(L, 1);
      throw std::runtime_error(std::string("http: ") + name +
                               " must be a whole number from 0 to 100");
    }
    out = static_cast<int>(lua_tointeger(L, -1));
  }
  lua_pop(L, 1);
  return out;
}

// Scalars as text: strings as they are, numbers and booleans as Lua prints them.
std::string scalar_text(lua_State* L, int index, const std::string& what) {
  switch (lua_type(L, index)) {
    case LUA_TSTRING:
    case LUA_TNUMBER: {
      lua_pushvalue(L, index);  // lua_tostring converts numbers in place; convert a copy
      std::string out = lua_tostring(L, -1);
      lua_pop(L, 1);
      return out;
    }
    case LUA_TBOOLEAN:
      return lua_toboolean(L, index) != 0 ? "true" : "false";
    default:
      throw std::runtime_error("http: " + what + " must be a string, number or boolean, not " +
                               luaL_typename(L, index));
  }
}

// A table of name = value (value a scalar, or for a query a list of scalars: repeated names),
// sorted by name so that the same table always gives the same request.
http::Headers pairs_field(lua_State* L, int table, const char* name, bool allow_lists) {
  lua_getfield(L, table, name);
  http::Headers out;
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return out;
  }
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    throw std::runtime_error(std::string("http: ") + name + " must be a table");
  }
  const int map = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, map) != 0) {
    if (lua_type(L, -2) != LUA_TSTRING) {
      lua_pop(L, 3);
      throw std::runtime_error(std::string("http: the keys of ") + name + " must be strings");
    }
    const std::string key = lua_tostring(L, -2);
    const std::string what = std::string(name) + "." + key;
    if (allow_lists && lua_istable(L, -1)) {
      const auto n = static_cast<lua_Integer>(lua_rawlen(L, -1));
      for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, -1, i);
        out.emplace_back(key, scalar_text(L, -1, what));
        lua_pop(L, 1);
      }
    } else {
      out.emplace_back(key, scalar_text(L, -1, what));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

[[noreturn]] void unknown_option(const std::string& key, const std::set<std::string>& known,
                                 const char* what) {
  std::string list;
  for (const auto& k : known) {
    if (!list.empty()) list += ", ";
    list += k;
  }
  throw std::runtime_error(std::string("http: ") + what + " has no option \"" + key +
                           "\" (known: " + list + ")");
}

void reject_unknown_keys(lua_State* L, int table, const std::set<std::string>& known,
                         const char* what) {
  lua_pushnil(L);
  while (lua_next(L, table) != 0) {
    lua_pop(L, 1);
    const std::string key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
    if (!known.contains(key)) {
      lua_pop(L, 1);
      unknown_option(key, known, what);
    }
  }
}

// The `oauth2` option: the client credentials grant that authorises a client's requests.
std::optional<http::ClientCredentials> read_client_credentials(lua_State* L, int table,
                                                               const std::string& base_url) {
  lua_getfield(L, table, "oauth2");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return std::nullopt;
  }
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    throw std::runtime_error(
        "http: oauth2 must be a table, as in { token_url = ..., client_id = ..., "
        "client_secret = ... }");
  }
  const int options = lua_gettop(L);
  reject_unknown_keys(L, options,
                      {"token_url", "client_id", "client_secret", "scopes", "params", "auth"},
                      "oauth2");
  http::ClientCredentials grant;
  for (auto [field, name] : {std::pair{&grant.token_url, "token_url"},
                             {&grant.client_id, "client_id"},
                             {&grant.client_secret, "client_secret"}}) {
    *field = string_field(L, options, name, "http: oauth2").value_or("");
    if (field->empty()) throw std::runtime_error(std::string("http: oauth2 needs ") + name);
  }
  grant.token_url = http::join_url(base_url, grant.token_url);
  lua_getfield(L, options, "scopes");
  if (lua_istable(L, -1)) {
    const auto n = static_cast<lua_Integer>(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      grant.scopes.push_back(scalar_text(L, -1, "oauth2.scopes[" + std::to_string(i) + "]"));
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, -1)) {
    lua_pop(L, 2);
    throw std::runtime_error("http: oauth2.scopes must be a list of strings");
  }
  lua_pop(L, 1);
  grant.parameters = pairs_field(L, options, "params", false);
  const std::string auth = string_field(L, options, "auth", "http: oauth2").value_or("basic");
  if (auth != "basic" && auth != "body") {
    throw std::runtime_error(
        "http: oauth2.auth must be \"basic\" (HTTP basic authentication, the default) or "
        "\"body\" (the client's credentials in the form)");
  }
  grant.credentials_in_body = auth == "body";
  lua_pop(L, 1);
  return grant;
}

ClientOptions read_client_options(lua_State* L, int table) {
  reject_unknown_keys(
      L, table,
      {"base_url", "headers", "username", "password", "bearer_token", "timeout", "connect_timeout",
       "retries", "retry_wait_min", "retry_wait_max", "ca_file", "client_cert", "client_key",
       "insecure", "max_response_bytes", "proxy", "oauth2"},
      "client");
  ClientOptions options;
  options.base_url = string_field(L, table, "base_url", "http").value_or("");
  options.headers = pairs_field(L, table, "headers", false);
  const std::string username = string_field(L, table, "username", "http").value_or("");
  const std::string password = string_field(L, table, "password", "http").value_or("");
  if (!username.empty() || !password.empty()) options.basic_auth = {{username, password}};
  const std::string token = string_field(L, table, "bearer_token", "http").value_or("");
  if (!token.empty()) {
    if (options.basic_auth) {
      throw std::runtime_error("http: a client takes username/password or bearer_token, not both");
    }
    options.headers.emplace_back("Authorization", "Bearer " + token);
  }
  if (auto t = duration_field(L, table, "timeout")) options.timeout = *t;
  if (auto t = duration_field(L, table, "connect_timeout")) options.connect_timeout = *t;
  if (auto n = count_field(L, table, "retries")) options.retry.max_retries = *n;
  if (auto n = byte_count_field(L, table, "max_response_bytes")) options.max_response_bytes = *n;
  if (auto t = duration_field(L, table, "retry_wait_min")) options.retry.min_wait = *t;
  if (auto t = duration_field(L, table, "retry_wait_max")) options.retry.max_wait = *t;
  if (options.retry.max_wait < options.retry.min_wait) {
    throw std::runtime_error("http: retry_wait_max is shorter than retry_wait_min");
  }
  options.tls.ca_file = string_field(L, table, "ca_file", "http").value_or("");
  options.tls.client_cert = string_field(L, table, "client_cert", "http").value_or("");
  options.tls.client_key = string_field(L, table, "client_key", "http").value_or("");
  // Files named here are read at every request; one that cannot be is the configuration's
  // mistake, said now (in configure) rather than at the first request.
  for (const auto& [option, file] :
       {std::pair<const char*, const std::string&>{"ca_file", options.tls.ca_file},
        {"client_cert", options.tls.client_cert},
        {"client_key", options.tls.client_key}}) {
    if (!file.empty() && !std::ifstream(file).good()) {
      throw std::runtime_error(std::string("http: ") + option + " \"" + file + "\" cannot be read");
    }
  }
  options.proxy = string_field(L, table, "proxy", "http").value_or("");
  lua_getfield(L, table, "insecure");
  options.tls.insecure = lua_toboolean(L, -1) != 0;
  lua_pop(L, 1);
  options.oauth2 = read_client_credentials(L, table, options.base_url);
  if (options.oauth2 && (options.basic_auth || !token.empty())) {
    throw std::runtime_error(
        "http: a client takes oauth2, username/password or bearer_token, one of them");
  }
  return options;
}

// ---- sending -------------------------------------------------------------------------------

// What one call asks for, beyond the client's options.
struct Call {
  http::Request request;
  http::RetryPolicy retry;
  std::set<long> allowed;  // statuses outside 2xx that do not raise (convenience methods)
};

bool has_header(const http::Headers& headers, std::string_view name) {
  return std::any_of(headers.begin(), headers.end(), [&](const auto& h) {
    return std::equal(h.first.begin(), h.first.end(), name.begin(), name.end(),
                      [](char a, char b) { return std::tolower(a) == std::tolower(b); });
  });
}

// Pushes the function `name` of the luaform_json module, loading the module if no script has.
void push_json_function(lua_State* L, const char* name) {
  luaL_requiref(L, "luaform_json", open_json_module, 0);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

void push_encoded_json(lua_State* L, int value) {
  value = lua_absindex(L, value);
  push_json_function(L, "encode");
  lua_pushvalue(L, value);
  lua_call(L, 1, 1);
}

// Reads the options of one call from the table at `table`; `body_arg` is the index of a body
// given positionally (post/put/patch), 0 when none.
Call read_call(lua_State* L, const Client& client, const std::string& method, int path_arg,
               int table, int body_arg) {
  Call call;
  call.retry = client.options.retry;
  http::Request& request = call.request;
  request.method = method;
  request.timeout = client.options.timeout;
  request.connect_timeout = client.options.connect_timeout;
  request.tls = client.options.tls;
  request.basic_auth = client.options.basic_auth;
  request.headers = client.options.headers;
  request.proxy = client.options.proxy;

  std::string path;
  if (path_arg != 0) path = luaL_checkstring(L, path_arg);
  http::Headers query;
  if (table != 0) {
    reject_unknown_keys(
        L, table,
        body_arg == 0 && path_arg == 0
            ? std::set<std::string>{"method", "path", "url", "query", "headers", "json", "body",
                                    "timeout", "retries"}
            : std::set<std::string>{"query", "headers", "timeout", "retries", "allow", "body"},
        "request");
    if (path_arg == 0) {
      std::string m = string_field(L, table, "method", "http").value_or("");
      std::transform(m.begin(), m.end(), m.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      if (!m.empty()) request.method = m;
      path = string_field(L, table, "path", "http").value_or("");
      const std::string url = string_field(L, table, "url", "http").value_or("");
      if (!url.empty()) path = url;
    }
    query = pairs_field(L, table, "query", true);
    for (auto& header : pairs_field(L, table, "headers", false)) {
      request.headers.push_back(std::move(header));
    }
    if (auto t = duration_field(L, table, "timeout")) request.timeout = *t;
    if (auto n = count_field(L, table, "retries")) call.retry.max_retries = *n;
    lua_getfield(L, table, "allow");
    if (lua_istable(L, -1)) {
      const auto n = static_cast<lua_Integer>(lua_rawlen(L, -1));
      for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, -1, i);
        call.allowed.insert(static_cast<long>(lua_tointeger(L, -1)));
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    if (path_arg == 0) {
      lua_getfield(L, table, "json");
      if (!lua_isnil(L, -1)) body_arg = lua_gettop(L);
    }
    const std::string raw = string_field(L, table, "body", "http").value_or("");
    if (!raw.empty()) {
      if (body_arg != 0 && !lua_isnil(L, body_arg)) {
        throw std::runtime_error("http: a request takes a JSON body or a raw body, not both");
      }
      request.body = raw;
    }
  }
  if (body_arg != 0 && !lua_isnil(L, body_arg)) {
    push_encoded_json(L, body_arg);
    request.body = lua_tostring(L, -1);
    lua_pop(L, 1);
    if (!has_header(request.headers, "content-type")) {
      request.headers.emplace_back("Content-Type", "application/json");
    }
  }
  if (!has_header(request.headers, "accept")) {
    request.headers.emplace_back("Accept", "application/json");
  }
  request.url = http::join_url(client.options.base_url, path);
  if (!query.empty()) {
    request.url += (request.url.find('?') == std::string::npos ? "?" : "&");
    request.url += http::encode_query(query);
  }
  if (request.url.empty()) throw std::runtime_error("http: the request has no URL");
  return call;
}

http::Response send(lua_State* L, Client& client, Call& call) {
  http::Interruption interruption;
  interruption.reason = [L] { return limit_reached(L); };
  interruption.deadline = current_deadline(L);
  // The body is held here, then as the script's string: twice what it takes of the memory
  // the script has left.
  const size_t memory_left = NativeMemory(L, "the response").left() / 2;
  if (memory_left < client.options.max_response_bytes) {
    call.request.max_response_bytes = memory_left;
    call.request.max_response_why =
        "all the script has left under its memory limit (LUAFORM_MEMORY_LIMIT_MB)";
  } else {
    call.request.max_response_bytes = client.options.max_response_bytes;
    call.request.max_response_why = "the client's max_response_bytes (default 64 MiB)";
  }
  // A request that brings its own Authorization header is sent as it is.
  if (!client.token || has_header(call.request.headers, "authorization")) {
    return client.session.send(call.request, call.retry, interruption);
  }
  bool fetched = false;
  auto authorize = [&] {
    return client.token->authorization(client.session, call.request, call.retry, interruption,
                                       fetched);
  };
  call.request.headers.emplace_back("Authorization", authorize());
  http::Response response = client.session.send(call.request, call.retry, interruption);
  if (response.status != 401 || fetched) return response;
  // Refused with a token fetched earlier: it may have been revoked or have ended early. Once
  // more with a new one; a refusal then is the API's answer.
  client.token->forget();
  call.request.headers.back().second = authorize();
  return client.session.send(call.request, call.retry, interruption);
}

bool is_json(const http::Response& response) {
  const auto type = response.header("content-type");
  return type && type->find("json") != std::string::npos;
}

// Pushes the decoded body, or nil when the body is empty or not JSON. Raises when `strict` and
// the body claims to be JSON but is not.
void push_decoded_body(lua_State* L, const http::Response& response, bool strict) {
  if (response.body.empty() || !is_json(response)) {
    lua_pushnil(L);
    return;
  }
  push_json_function(L, "decode");
  lua_pushlstring(L, response.body.data(), response.body.size());
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    const std::string why = error_message(L);
    lua_pop(L, 1);
    if (strict) throw std::runtime_error("http: the response body is not valid JSON: " + why);
    lua_pushnil(L);
  }
}

void push_response(lua_State* L, const http::Response& response) {
  lua_createtable(L, 0, 5);
  lua_pushinteger(L, response.status);
  lua_setfield(L, -2, "status");
  lua_pushlstring(L, response.body.data(), response.body.size());
  lua_setfield(L, -2, "body");
  lua_pushinteger(L, response.attempts);
  lua_setfield(L, -2, "attempts");
  lua_createtable(L, 0, static_cast<int>(response.headers.size()));
  for (const auto& [name, value] : response.headers) {
    // Repeated headers are joined with ", ", as HTTP allows for all but Set-Cookie.
    lua_getfield(L, -1, name.c_str());
    if (lua_isstring(L, -1)) {
      lua_pushfstring(L, "%s, %s", lua_tostring(L, -1), value.c_str());
    } else {
      lua_pushstring(L, value.c_str());
    }
    lua_setfield(L, -3, name.c_str());
    lua_pop(L, 1);
  }
  lua_setfield(L, -2, "headers");
  push_decoded_body(L, response, false);
  lua_setfield(L, -2, "json");
}

// Raises the error object for an answer outside 2xx: a table whose message reads
// "resource_thing.lua:12: GET http://host/things/7: 404: {...body...}".
[[noreturn]] void raise_status(lua_State* L, const http::Request& request,
                               const http::Response& response) {
  // Cut at a character's start, and made UTF-8 (a Latin-1 body's bytes become U+FFFD): the
  // message ends up in a diagnostic, which the CLI refuses whole over one bad byte. Every
  // well-formed character is kept byte for byte, so a secret the body quotes is still hidden.
  const std::string quoted = engine::utf8_excerpt(response.body, kQuotedBodyLimit, "...");
  std::string message = script_where(L) + request.method + " " + request.url + ": status " +
                        std::to_string(response.status);
  if (!quoted.empty()) message += ": " + quoted;
  lua_createtable(L, 0, 6);
  lua_pushstring(L, message.c_str());
  lua_setfield(L, -2, "message");
  lua_pushinteger(L, response.status);
  lua_setfield(L, -2, "status");
  lua_pushlstring(L, response.body.data(), response.body.size());
  lua_setfield(L, -2, "body");
  lua_pushstring(L, request.method.c_str());
  lua_setfield(L, -2, "method");
  lua_pushstring(L, request.url.c_str());
  lua_setfield(L, -2, "url");
  push_response(L, response);
  lua_setfield(L, -2, "response");
  luaL_setmetatable(L, kErrorMetatable);
  lua_error(L);
  throw std::logic_error("lua_error returned");  // unreachable: lua_error does not return
}

// ---- Lua functions ---------------------------------------------------------------------------

Client& check_client(lua_State* L) {
  return *static_cast<Client*>(luaL_checkudata(L, 1, kClientMetatable));
}

int new_client(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  ClientOptions options = read_client_options(L, 1);
  void* memory = lua_newuserdatauv(L, sizeof(Client), 0);
  auto* client = new (memory) Client{std::move(options), http::Session(), std::nullopt};
  if (client->options.oauth2) client->token.emplace(*client->options.oauth2);
  luaL_setmetatable(L, kClientMetatable);
  return 1;
}

int collect_client(lua_State* L) {
  auto* client = static_cast<Client*>(luaL_checkudata(L, 1, kClientMetatable));
  client->~Client();
  return 0;
}

// c:request{...}: the response whatever its status.
int request(lua_State* L) {
  Client& client = check_client(L);
  luaL_checktype(L, 2, LUA_TTABLE);
  Call call = read_call(L, client, "GET", 0, 2, 0);
  http::Response response;
  try {
    response = send(L, client, call);
  } catch (const http::TransportError& e) {
    throw std::runtime_error(e.what());
  }
  push_response(L, response);
  return 1;
}

// c:get(path, opts) and the others: decoded body and response; raises outside 2xx and `allow`.
template <bool WithBody>
int convenience(lua_State* L) {
  Client& client = check_client(L);
  const std::string method = lua_tostring(L, lua_upvalueindex(1));
  const int options = WithBody ? 4 : 3;
  if (!lua_isnoneornil(L, options)) luaL_checktype(L, options, LUA_TTABLE);
  lua_settop(L, options);
  Call call =
      read_call(L, client, method, 2, lua_isnil(L, options) ? 0 : options, WithBody ? 3 : 0);
  http::Response response;
  try {
    response = send(L, client, call);
  } catch (const http::TransportError& e) {
    throw std::runtime_error(e.what());
  }
  const bool ok = response.status >= 200 && response.status <= 299;
  if (!ok && !call.allowed.contains(response.status)) raise_status(L, call.request, response);
  push_decoded_body(L, response, ok);
  push_response(L, response);
  return 2;
}

int error_to_string(lua_State* L) {
  lua_getfield(L, 1, "message");
  return 1;
}

// status_of(err): the status of an HTTP error object, nil for anything else.
int status_of(lua_State* L) {
  if (lua_istable(L, 1) && lua_getmetatable(L, 1)) {
    luaL_getmetatable(L, kErrorMetatable);
    const bool ours = lua_rawequal(L, -1, -2) != 0;
    lua_pop(L, 2);
    if (ours) {
      lua_getfield(L, 1, "status");
      return 1;
    }
  }
  lua_pushnil(L);
  return 1;
}

void register_metatables(lua_State* L) {
  if (luaL_newmetatable(L, kClientMetatable) != 0) {
    lua_pushcfunction(L, guarded<collect_client>);
    lua_setfield(L, -2, "__gc");
    lua_newtable(L);
    lua_pushcfunction(L, guarded<request>);
    lua_setfield(L, -2, "request");
    struct Verb {
      const char* method;
      const char* name;
      lua_CFunction function;
    };
    const Verb verbs[] = {{"GET", "get", guarded<convenience<false>>},
                          {"DELETE", "delete", guarded<convenience<false>>},
                          {"POST", "post", guarded<convenience<true>>},
                          {"PUT", "put", guarded<convenience<true>>},
                          {"PATCH", "patch", guarded<convenience<true>>}};
    for (const Verb& verb : verbs) {
      lua_pushstring(L, verb.method);
      lua_pushcclosure(L, verb.function, 1);
      lua_setfield(L, -2, verb.name);
    }
    lua_setfield(L, -2, "__index");
    // Sealed: a script that reached it could give every client a finalizer of its own.
    seal_metatable(L, -1, kClientMetatable);
  }
  lua_pop(L, 1);
  if (luaL_newmetatable(L, kErrorMetatable) != 0) {
    lua_pushcfunction(L, guarded<error_to_string>);
    lua_setfield(L, -2, "__tostring");
    seal_metatable(L, -1, kErrorMetatable);
  }
  lua_pop(L, 1);
}

}  // namespace

int open_http_module(lua_State* L) {
  register_metatables(L);
  const luaL_Reg functions[] = {
      {"client", guarded<new_client>}, {"status_of", guarded<status_of>}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace luaform::lua
