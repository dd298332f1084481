# Run with TF_ENABLE_PLUGGABLE_STATE_STORAGE=1 (Terraform 1.16 built with experiments allowed).
terraform {
  required_providers {
    etcd = { source = "luaform/etcd" }
  }
  state_store "etcd_state" {
    provider "etcd" {
      endpoint = "http://127.0.0.1:2379"
    }
    prefix   = "terraform/"
    lock_ttl = 600
  }
}
