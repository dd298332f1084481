resource "postgresql_database" "app" {
  name  = "app"
  owner = postgresql_role.app.name
}
