# Flush the API's cache after each deploy of the service object, or by hand with
# terraform apply -invoke=action.restapi_request.flush
action "restapi_request" "flush" {
  config {
    method        = "POST"
    path          = "/cache/flush"
    data          = jsonencode({ reason = "deploy" })
    expect_status = 202
  }
}

resource "restapi_object" "service" {
  path = "/services"
  data = jsonencode({ name = "web", version = "1.4.2" })

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.restapi_request.flush]
    }
  }
}
