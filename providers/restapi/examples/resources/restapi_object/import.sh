# The id is the collection path and the object's id.
terraform import restapi_object.user /users/42
