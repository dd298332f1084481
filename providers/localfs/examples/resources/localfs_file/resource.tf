resource "localfs_file" "motd" {
  path    = "motd.txt"
  content = "Welcome!\n"
}
