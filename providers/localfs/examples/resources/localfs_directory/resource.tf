resource "localfs_directory" "reports" {
  path       = "reports/2026"
  permission = "0750"
}
