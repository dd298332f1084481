# A small tour of the localfs provider: files written under one directory, one of them read
# back through the data source, and a directory of its own with a private file in it. examples/run-demo.sh runs it in a scratch copy.
terraform {
  required_providers {
    localfs = {
      source = "registry.opentofu.org/luaform/localfs"
    }
  }
}

variable "directory" {
  type        = string
  description = "Directory the files are written to (created when missing)"
  default     = "out"
}

variable "greeting" {
  type    = string
  default = "Hello from a provider written in Lua"
}

# Relative paths in the resources below start from `root`.
provider "localfs" {
  root = var.directory
}

resource "localfs_file" "greeting" {
  path    = "greeting.txt"
  content = "${var.greeting}\n"
}

resource "localfs_file" "inventory" {
  path    = "inventory.txt"
  content = <<-EOT
    web-1
    web-2
    db-1
  EOT
}

# A directory with its own mode, and a file in it that only its owner and group may read. Its
# content counts the inventory's lines with the provider's function, so it is known (with its
# sha256) already in the plan.
resource "localfs_directory" "reports" {
  path       = "reports"
  permission = "0750"
}

resource "localfs_file" "summary" {
  path            = "${localfs_directory.reports.path}/summary.txt"
  content         = "${length(provider::localfs::lines(localfs_file.inventory.content))} hosts\n"
  file_permission = "0640"
}

# Read back through the data source; depends_on waits for the resource to write the file.
data "localfs_file" "inventory" {
  path       = localfs_file.inventory.path
  depends_on = [localfs_file.inventory]
}

output "greeting_sha256" {
  value = localfs_file.greeting.sha256
}

output "greeting_size" {
  value = localfs_file.greeting.size
}

output "inventory_content" {
  value = data.localfs_file.inventory.content
}

output "inventory_hosts" {
  value = data.localfs_file.inventory.lines
}

# The provider's function splits text the way the data source splits the file, already at plan
# time since the content is in the configuration.
output "inventory_hosts_planned" {
  value = provider::localfs::lines(localfs_file.inventory.content)
}

output "inventory_matches" {
  description = "The data source saw exactly what the resource wrote"
  value       = data.localfs_file.inventory.sha256 == localfs_file.inventory.sha256
}

output "summary_sha256" {
  value = localfs_file.summary.sha256
}
