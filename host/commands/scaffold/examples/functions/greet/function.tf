output "greeting" {
  value = provider::NAME::greet("world") # "Hello, world!"
}
