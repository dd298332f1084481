# A post and a lookup in a JSON API. `bash examples/run-demo.sh restapi` applies it against
# json-server (a REST API over a JSON file, from npm), which it starts on loopback; set
# RESTAPI_URI to use another API with a /posts collection.
terraform {
  required_providers {
    restapi = { source = "registry.opentofu.org/luaform/restapi" }
  }
}

provider "restapi" {
  retries = 2
}

resource "restapi_object" "post" {
  path = "/posts"
  data = jsonencode({ title = "written in Lua", tags = ["luaform", "opentofu"] })
}

data "restapi_object" "found" {
  path         = "/posts"
  search_key   = "title"
  search_value = "written in Lua"
  depends_on   = [restapi_object.post]
}

output "post_id" {
  value = restapi_object.post.id
}

output "found_tags" {
  value = data.restapi_object.found.api_data.tags
}
