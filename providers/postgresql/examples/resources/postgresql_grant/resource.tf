resource "postgresql_grant" "reader" {
  database    = postgresql_database.app.name
  role        = postgresql_role.reader.name
  object_type = "schema"
  schema      = postgresql_schema.data.name
  privileges  = ["USAGE"]
}
