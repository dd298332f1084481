-- provider "etcd": keys in an etcd v3 cluster, through its HTTP/JSON API.
local tf = require("luaform")
local etcd = require("lib.etcd")

return tf.provider {
  description = "Keys in etcd (v3), through its HTTP/JSON gateway",
  schema = {
    endpoint = tf.string {
      required = true,
      default = tf.env("ETCD_ENDPOINT"),
      description = "Client URL of a cluster member: `http://127.0.0.1:2379` (env ETCD_ENDPOINT)",
    },
    prefix = tf.string {
      optional = true,
      description = "Put in front of every key this provider manages or reads: its namespace",
    },
    username = tf.string { optional = true, description = "User for etcd's authentication" },
    password = tf.string {
      optional = true,
      sensitive = true,
      default = tf.env("ETCD_PASSWORD"),
      required_with = { "username" },
      description = "Password of that user (env ETCD_PASSWORD)",
    },
    timeout = tf.string { optional = true, default = "10s", description = "Per request" },
    retries = tf.number { optional = true, default = 3, validate = tf.v.between(0, 20) },
  },
  configure = function(config, unknown)
    if next(unknown) then
      -- Part of it comes from a resource not created yet (no endpoint to call, no password to
      -- log in with); the CLI configures the provider again, with every value known, before it
      -- applies.
      return nil
    end
    local client = tf.http.client {
      base_url = config.endpoint,
      timeout = config.timeout,
      retries = config.retries,
      retry_wait_min = "200ms",
    }
    if config.username then
      -- etcd answers with a token that goes, as it is, in the Authorization header.
      local answer = client:post("/v3/auth/authenticate",
        { name = config.username, password = config.password })
      client = tf.http.client {
        base_url = config.endpoint,
        headers = { Authorization = answer.token },
        timeout = config.timeout,
        retries = config.retries,
        retry_wait_min = "200ms",
      }
    end
    return etcd.new(client, config.prefix)
  end,
}
