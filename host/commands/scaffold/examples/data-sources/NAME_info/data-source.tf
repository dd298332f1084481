data "NAME_info" "current" {}
