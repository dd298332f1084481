output "hosts" {
  value = provider::localfs::lines("web-1\nweb-2\n") # ["web-1", "web-2"]
}
