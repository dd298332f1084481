# Run with TF_ENABLE_PLUGGABLE_STATE_STORAGE=1 (Terraform 1.16 built with experiments allowed).
terraform {
  required_providers {
    restapi = { source = "luaform/restapi" }
  }
  state_store "restapi_state" {
    provider "restapi" {
      uri = "http://127.0.0.1:3000"
    }
    path      = "/tfstates"
    lock_path = "/tflocks"
  }
}
