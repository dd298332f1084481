# Every user, read 100 at a time (the API's own paging parameters; the next pages come from
# its Link: rel="next" headers), shown by name.
list "restapi_object" "users" {
  provider = restapi

  config {
    path          = "/users"
    query         = { _page = "1", _limit = "100" }
    display_field = "name"
  }
}
