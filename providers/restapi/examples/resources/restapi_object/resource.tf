resource "restapi_object" "user" {
  path = "/users"
  data = jsonencode({ name = "ada", role = "admin" })
}

output "created_at" {
  value = restapi_object.user.api_data.created_at
}
