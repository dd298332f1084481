resource "etcd_key" "mode" {
  key   = "app/mode"
  value = "blue"
  ttl   = 3600 # optional: on a lease, deleted by etcd after an hour
}
