provider "NAME" {
  endpoint = "http://127.0.0.1:8080"
}
