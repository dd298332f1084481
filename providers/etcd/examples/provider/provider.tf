provider "etcd" {
  endpoint = "http://127.0.0.1:2379" # or ETCD_ENDPOINT
  prefix   = "prod/"                 # every key below is under prod/
  username = "ops"                   # etcd authentication, when enabled
  password = var.etcd_password       # or ETCD_PASSWORD (sensitive)
}
