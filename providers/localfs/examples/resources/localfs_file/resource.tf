resource "localfs_file" "motd" {
  path    = "motd.txt"
  content = "Welcome!\n"
}

# A private file in a directory created for it.
resource "localfs_file" "key" {
  path                 = "keys/service.key"
  content              = "not really a key\n"
  file_permission      = "0600"
  directory_permission = "0700"
}
