data "etcd_range" "team" {
  prefix = "a/" # values: key => value, keys: in key order
}
