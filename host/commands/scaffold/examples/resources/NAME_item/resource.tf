resource "NAME_item" "first" {
  name = "first"
  note = "made by the skeleton"
}
