provider "restapi" {
  uri          = "https://api.example.com/v1" # or RESTAPI_URI
  bearer_token = var.token                    # or RESTAPI_TOKEN; or username + password
  headers      = { "X-Team" = "infra" }
  timeout      = "30s" # per attempt (default 60s)
  retries      = 4     # on connection errors, 429 and 5xx, honouring Retry-After
}
