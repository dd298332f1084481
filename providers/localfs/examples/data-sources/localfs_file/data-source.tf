data "localfs_file" "hosts" {
  path = "/etc/hosts"
}

output "first_line" {
  value = data.localfs_file.hosts.lines[0]
}
