terraform {
  required_providers {
    NAME = {
      source = "registry.opentofu.org/luaform/NAME"
    }
  }
}

provider "NAME" {}

resource "NAME_item" "first" {
  name = "first"
}

data "NAME_info" "current" {}

output "size" {
  value = NAME_item.first.size
}

output "endpoint" {
  value = data.NAME_info.current.endpoint
}

output "greeting" {
  value = provider::NAME::greet("world")
}
