-- provider "restapi": any JSON API over HTTP. The provider holds the connection settings; each
-- object says where it lives.
local tf = require("luaform")

return tf.provider {
  description = "Objects of any JSON REST API",
  schema = {
    uri = tf.string {
      required = true,
      default = tf.env("RESTAPI_URI"),
      description = "Base URL of the API; object paths are joined to it (env RESTAPI_URI)",
    },
    headers = tf.map(tf.string) {
      optional = true,
      description = "Headers sent with every request",
    },
    username = tf.string { optional = true, description = "User name for basic auth" },
    password = tf.string {
      optional = true,
      sensitive = true,
      default = tf.env("RESTAPI_PASSWORD"),
      description = "Password for basic auth (env RESTAPI_PASSWORD)",
    },
    bearer_token = tf.string {
      optional = true,
      sensitive = true,
      default = tf.env("RESTAPI_TOKEN"),
      conflicts_with = { "username" },
      description = "Token sent as `Authorization: Bearer ...` (env RESTAPI_TOKEN)",
    },
    timeout = tf.string {
      optional = true,
      default = "60s",
      description = "How long one attempt of a request may take",
    },
    retries = tf.number {
      optional = true,
      default = 4,
      validate = tf.v.between(0, 20),
      description = "Attempts after the first on connection errors, 429 and 5xx",
    },
    retry_wait_min = tf.string {
      optional = true,
      default = "1s",
      description = "The first wait between attempts, doubled each time",
    },
    ca_file = tf.string { optional = true, description = "PEM bundle of CAs to trust" },
    insecure = tf.bool {
      optional = true,
      description = "Skip verifying the server's TLS certificate",
    },
  },
  configure = function(config, unknown)
    if next(unknown) then
      -- Part of it comes from a resource not created yet; the CLI configures the provider
      -- again, with every value known, before it applies.
      return nil
    end
    return tf.http.client {
      base_url = config.uri,
      headers = config.headers,
      username = config.username,
      password = config.password,
      bearer_token = config.bearer_token,
      timeout = config.timeout,
      retries = config.retries,
      retry_wait_min = config.retry_wait_min,
      retry_wait_max = "30s",
      ca_file = config.ca_file,
      insecure = config.insecure,
    }
  end,
}
