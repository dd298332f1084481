# Configuration keys in etcd. `bash examples/run-demo.sh etcd` applies it against Debian's
# etcd-server, which it starts on loopback; set ETCD_ENDPOINT to use another cluster.
terraform {
  required_providers {
    etcd = { source = "registry.opentofu.org/luaform/etcd" }
  }
}

provider "etcd" {
  prefix = "demo/"
}

resource "etcd_key" "mode" {
  key   = "app/mode"
  value = "blue"
}

resource "etcd_key" "session" {
  key   = "app/session"
  value = "started by the demo"
  ttl   = 3600
}

data "etcd_range" "app" {
  prefix     = "app/"
  depends_on = [etcd_key.mode, etcd_key.session]
}

output "app_keys" {
  value = data.etcd_range.app.values
}
