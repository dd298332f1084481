data "etcd_key" "db" {
  key = "a/db" # value, version, mod_revision; a missing key is an error at `key`
}
