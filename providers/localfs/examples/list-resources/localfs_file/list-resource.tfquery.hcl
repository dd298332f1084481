# terraform query lists them; terraform query -generate-config-out=files.tf writes a
# resource and an import block for each.
list "localfs_file" "reports" {
  provider = localfs

  config {
    directory = "reports"
    pattern   = "*.csv"
    recursive = true
  }
}
