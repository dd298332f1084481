resource "postgresql_role" "app" {
  name             = "app"
  login            = true
  password         = var.app_password
  connection_limit = 20
}
