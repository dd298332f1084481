data "restapi_object" "admin" {
  path         = "/users"
  query        = { _page = "1", _limit = "100" } # the API's own paging parameters
  search_key   = "name"
  search_value = "ada"
}
