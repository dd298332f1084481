---@meta
-- luacheck: no unused, max comment line length 600
-- Type definitions of `tf.http` (`require("luaform_http")`, built into the host on libcurl;
-- `paginate`, `crud`, `path`, `escape` and `unescape` are added by `require("luaform")`).

--- Header names and values. A header given `""` is not sent at all.
---@alias luaform.HttpHeaders table<string, string>

--- Query parameters; a list value repeats the name.
---@alias luaform.HttpQuery table<string, string|number|boolean|(string|number|boolean)[]>

--- The options of `tf.http.client`.
---@class (exact) luaform.HttpClientOptions : { base_url?: any, headers?: any, username?: any, password?: any, bearer_token?: any, timeout?: any, connect_timeout?: any, retries?: any, retry_wait_min?: any, retry_wait_max?: any, ca_file?: any, client_cert?: any, client_key?: any, insecure?: any, max_response_bytes?: any, proxy?: any, oauth2?: any, [string]: nil }
---@field base_url? string paths of requests are joined to it
---@field headers? luaform.HttpHeaders sent with every request
---@field username? string basic authentication
---@field password? string basic authentication
---@field bearer_token? string `Authorization: Bearer ...`
---@field timeout? luaform.Duration per attempt (60s)
---@field connect_timeout? luaform.Duration (10s)
---@field retries? integer attempts after the first for connection errors, 429 and 5xx (4)
---@field retry_wait_min? luaform.Duration the first wait between attempts (1s)
---@field retry_wait_max? luaform.Duration the longest wait between attempts (30s)
---@field ca_file? string a PEM bundle to trust instead of the system's
---@field client_cert? string a client certificate (PEM file)
---@field client_key? string its key (PEM file)
---@field insecure? boolean no TLS verification
---@field max_response_bytes? integer the longest body accepted (64 MiB)
---@field proxy? string a proxy for every request, whatever the environment says
---@field oauth2? luaform.HttpOAuth2 requests carry a token of OAuth 2.0's client credentials grant

--- OAuth 2.0's client credentials grant: a token fetched before the first request, again when due and after a 401.
---@class (exact) luaform.HttpOAuth2 : { token_url?: any, client_id?: any, client_secret?: any, scopes?: any, params?: any, auth?: any, [string]: nil }
---@field token_url string the token endpoint (a path is joined to base_url)
---@field client_id string
---@field client_secret string
---@field scopes? string[] sent space-separated as `scope`
---@field params? table<string, string> more fields of the token request (audience, resource)
---@field auth? "basic"|"body" the client's credentials by HTTP basic authentication (default) or in the form

--- The options of `client:get` and the other verbs.
---@class (exact) luaform.HttpOptions : { query?: any, headers?: any, timeout?: any, retries?: any, allow?: any, body?: any, [string]: nil }
---@field query? luaform.HttpQuery
---@field headers? luaform.HttpHeaders
---@field timeout? luaform.Duration
---@field retries? integer
---@field allow? integer[] statuses outside 2xx that return instead of raising
---@field body? string a raw body instead of a JSON one

--- What `client:request` takes.
---@class (exact) luaform.HttpRequest : { method?: any, path?: any, url?: any, query?: any, headers?: any, json?: any, body?: any, timeout?: any, retries?: any, [string]: nil }
---@field method? string (GET)
---@field path? string joined to the client's base_url
---@field url? string a whole URL instead of `path`
---@field query? luaform.HttpQuery
---@field headers? luaform.HttpHeaders
---@field json? any a body encoded as JSON
---@field body? string a raw body
---@field timeout? luaform.Duration
---@field retries? integer

--- An answer.
---@class luaform.HttpResponse
---@field status integer
---@field headers table<string, string> names in lower case
---@field body string the body, decoded from gzip or deflate
---@field json any the decoded body when the server says it is JSON
---@field attempts integer how many attempts it took

--- The error a request raises for a status outside 2xx and `allow`.
---@class luaform.HttpError
---@field message string
---@field status integer
---@field body string
---@field method string
---@field url string
---@field response luaform.HttpResponse

--- An HTTP client; requests through it reuse their connections.
---@class luaform.HttpClient
local HttpClient = {}

--- GET: the decoded JSON body (nil when empty) and the response.
---@param path string
---@param opts? luaform.HttpOptions
---@return any body
---@return luaform.HttpResponse response
function HttpClient:get(path, opts) end

--- DELETE: the decoded JSON body (nil when empty) and the response.
---@param path string
---@param opts? luaform.HttpOptions
---@return any body
---@return luaform.HttpResponse response
function HttpClient:delete(path, opts) end

--- POST `body` as JSON: the decoded JSON body and the response.
---@param path string
---@param body any
---@param opts? luaform.HttpOptions
---@return any body
---@return luaform.HttpResponse response
function HttpClient:post(path, body, opts) end

--- PUT `body` as JSON: the decoded JSON body and the response.
---@param path string
---@param body any
---@param opts? luaform.HttpOptions
---@return any body
---@return luaform.HttpResponse response
function HttpClient:put(path, body, opts) end

--- PATCH `body` as JSON: the decoded JSON body and the response.
---@param path string
---@param body any
---@param opts? luaform.HttpOptions
---@return any body
---@return luaform.HttpResponse response
function HttpClient:patch(path, body, opts) end

--- Any request: the response whatever its status; raises only when no answer came.
---@param request luaform.HttpRequest
---@return luaform.HttpResponse
function HttpClient:request(request) end

--- The options of `tf.http.paginate`.
---@class (exact) luaform.PaginateOptions : { query?: any, headers?: any, items?: any, next?: any, max_pages?: any, each?: any, [string]: nil }
---@field query? luaform.HttpQuery the first request's query
---@field headers? luaform.HttpHeaders headers of every request
---@field items? string|fun(body: any, response: luaform.HttpResponse): any[]? the field holding a page's items, or a function giving them
---@field next? fun(body: any, response: luaform.HttpResponse, page: integer): string?, luaform.HttpQuery? the next page's path and query; nil after the last
---@field max_pages? integer a bound against an API that never stops (1000)
---@field each? fun(item: any): boolean? called with each item as its page arrives; false stops reading (no further pages)

--- The options of `tf.http.crud`.
---@class (exact) luaform.CrudOptions : { path?: any, body?: any, record?: any, update?: any, id?: any, gone?: any, headers?: any, [string]: nil }
---@field path string the collection's path; an object is at path .. "/" .. its escaped id
---@field body fun(d: luaform.ResourceData): table what create and update send
---@field record fun(d: luaform.ResourceData, object: any) copies what the API answered into d
---@field update? "put"|"patch" the method of an update ("put")
---@field id? string|fun(object: any, response: luaform.HttpResponse): string where the created object's id is ("id")
---@field gone? integer[] statuses that mean the object no longer exists ({ 404 })
---@field headers? fun(d: luaform.ResourceData, operation: "create"|"read"|"update"|"delete"): luaform.HttpHeaders? the headers of each request

--- A resource's create, read, update and delete, made by `tf.http.crud`.
---@class luaform.Crud
---@field create fun(d: luaform.ResourceData, client: luaform.HttpClient)
---@field read fun(d: luaform.ResourceData, client: luaform.HttpClient)
---@field update fun(d: luaform.ResourceData, client: luaform.HttpClient)
---@field delete fun(d: luaform.ResourceData, client: luaform.HttpClient)

---@class luaform.http
local http = {}

--- A new client.
---@param options luaform.HttpClientOptions
---@return luaform.HttpClient
function http.client(options) end

--- The HTTP status of an error a request raised, nil for any other error.
---@param err any
---@return integer?
function http.status_of(err) end

--- Every item of every page, in order (the `Link: rel="next"` header unless `next` is given).
---@param client luaform.HttpClient
---@param path string
---@param options? luaform.PaginateOptions
---@return any[]
function http.paginate(client, path, options) end

--- Create, read, update and delete for a JSON API whose collection takes a POST.
---@param options luaform.CrudOptions
---@return luaform.Crud
function http.crud(options) end

--- `"/a/b/c"` from segments, each escaped.
---@param ... string|number
---@return string
function http.path(...) end

--- A path segment percent-encoded as Go's `url.PathEscape` does.
---@param segment string|number
---@return string
function http.escape(segment) end

--- The reverse of `escape`; a malformed escape is an error.
---@param text string
---@return string
function http.unescape(text) end

return http
