// The module `require("luaform_http")` returns (also `tf.http`): HTTP clients for scripts, on
// http_client.h. The authoring guide (lua-sdk/README.md, "HTTP") documents it for authors.
//
//   client(options)             a client: base_url, headers, username/password, bearer_token,
//                               timeout, connect_timeout, retries, retry_wait_min/max, ca_file,
//                               client_cert, client_key, insecure
//   c:request{...}              the response {status, headers, body, json, attempts}, whatever
//                               its status; raises only when no response came
//   c:get/delete(path, opts)    decoded JSON body (nil when empty) and the response; raises an
//   c:post/put/patch(path, body, opts)   error object (status, body, method, url) on a status
//                               outside 2xx unless opts.allow lists it
//   status_of(err)              the status of such an error object, nil for any other error
//
// Requests stop early on StopProvider and at the running operation's deadline.
#pragma once

#include <lua.hpp>

namespace luaform::lua {

// Installed in package.preload as a C function, so the sandbox's no-C-loaders rule holds.
int open_http_module(lua_State* L);

}  // namespace luaform::lua
