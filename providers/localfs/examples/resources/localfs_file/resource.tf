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

# Bytes that are not text, and a file copied (again whenever it changes).
resource "localfs_file" "logo" {
  path           = "static/logo.png"
  content_base64 = filebase64("${path.module}/logo.png")
}

resource "localfs_file" "nginx" {
  path   = "conf/nginx.conf"
  source = "templates/nginx.conf"
}
