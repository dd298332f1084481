provider "postgresql" {
  host        = "db.example.internal"
  port        = 5432
  username    = "postgres"
  password    = var.postgres_password
  sslmode     = "verify-full"
  sslrootcert = "/etc/ssl/certs/internal-ca.pem"
}
