resource "postgresql_schema" "data" {
  database = postgresql_database.app.name
  name     = "data"
  owner    = postgresql_role.app.name
}
