-- provider "prefect": a Prefect server's REST API, served from the OpenAPI 3.1 description the
-- server itself publishes (prefect-openapi.json, unchanged). The description gives the types;
-- these lines say only what it cannot.
local tf = require("luaform")

-- Work pools are addressed by name, and neither their name nor their type can change.
local replaced = { force_new = true }

return tf.openapi.provider {
  document = "prefect-openapi.json",
  env_prefix = "PREFECT",
  resources = {
    work_pool = { attributes = { name = replaced, type = replaced } },
    -- A block document's data holds credentials (its block schema says which fields are
    -- secret; the description types data as any object).
    block_document = { attributes = { data = { sensitive = true } } },
  },
  -- The server answers 503 while its SQLite database is locked by another writer; with
  -- Terraform's parallel calls and other scenarios sharing the server, a delete once met it for
  -- longer than the default four retries (11 s).
  http = { retries = 8 },
}
