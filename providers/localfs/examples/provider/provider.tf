provider "localfs" {
  root = "/srv/generated" # optional; else $LOCALFS_ROOT, else the working directory
}
