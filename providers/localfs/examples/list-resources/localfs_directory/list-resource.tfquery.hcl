list "localfs_directory" "releases" {
  provider = localfs
  limit    = 20

  config {
    directory = "/srv/releases"
    pattern   = "v*"
  }
}
