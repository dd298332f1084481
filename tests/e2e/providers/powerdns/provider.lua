-- provider "powerdns": PowerDNS Authoritative's HTTP API, served from its own Swagger 2.0
-- description (powerdns-api.yaml, unchanged). The description gives the types and their
-- attributes; these lines say only what it cannot.
local tf = require("luaform")

-- What the description does not say: which fields the server changes only by replacing the
-- object, and which values are secrets.
local replaced = { force_new = true }
local secret = { sensitive = true }

return tf.openapi.provider {
  document = "powerdns-api.yaml",
  env_prefix = "PDNS",
  resources = {
    -- "The only fields ... which can be modified are: kind, masters, catalog, account,
    -- soa_edit, soa_edit_api, api_rectify, dnssec, and nsec3param" (putZone's description).
    zone = { attributes = { name = replaced, nameservers = replaced, zone = replaced } },
    -- A new name is a new key (its id is made from the name).
    tsig_key = { attributes = { name = replaced, key = secret } },
    cryptokey = { attributes = { privatekey = secret } },
  },
}
