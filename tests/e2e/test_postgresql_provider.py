"""providers/postgresql against Debian's PostgreSQL 15 on loopback, through its own client on
the host's sockets: SCRAM-SHA-256 over TLS verified against a test CA; roles, databases,
schemas and grants created, changed in place, drifted with psql, imported and destroyed; a
certificate for another name, an unknown CA and a wrong password each a clear error."""
from support.harness import planned_actions, required_providers, resources, squash
from support.postgresql_service import SUPERUSER_PASSWORD

import pytest

ROLE_PASSWORD = "role-secret-8086"


@pytest.fixture
def pg(make_tofu, postgresql_dir):
    return make_tofu({"postgresql": postgresql_dir})


def provider(postgresql, *, host: str = "localhost", sslmode: str = "verify-full",
             ca: bool = True, password: str = SUPERUSER_PASSWORD) -> str:
    root = f'sslrootcert = "{postgresql.ca}"' if ca else ""
    return required_providers("postgresql") + f"""
provider "postgresql" {{
  host     = "{host}"
  port     = {postgresql.port}
  password = "{password}"
  sslmode  = "{sslmode}"
  {root}
}}
"""


def everything(postgresql, *, role: str, limit: int = 5, privileges: str = '"USAGE"',
               owner: str = "postgresql_role.app.name") -> str:
    db = postgresql.prefix + "db"
    return provider(postgresql) + f"""
resource "postgresql_role" "app" {{
  name             = "{role}"
  login            = true
  password         = "{ROLE_PASSWORD}"
  connection_limit = {limit}
}}

resource "postgresql_database" "db" {{
  name  = "{db}"
  owner = postgresql_role.app.name
}}

resource "postgresql_schema" "s" {{
  database = postgresql_database.db.name
  name     = "data"
  owner    = {owner}
}}

resource "postgresql_grant" "g" {{
  database    = postgresql_database.db.name
  role        = postgresql_role.app.name
  object_type = "schema"
  schema      = postgresql_schema.s.name
  privileges  = [{privileges}]
}}
"""


def test_roles_databases_schemas_and_grants_live_drift_import_and_go(pg, postgresql):
    role, db = postgresql.prefix + "app", postgresql.prefix + "db"
    pg.write(everything(postgresql, role=role))
    pg.apply()
    psql = postgresql.psql
    assert psql(f"select rolcanlogin, rolconnlimit from pg_roles where rolname = '{role}'") == "t|5"
    assert psql(f"select pg_get_userbyid(datdba) from pg_database where datname = '{db}'") == role
    assert psql("select pg_get_userbyid(nspowner) from pg_namespace where nspname = 'data'",
                db) == role
    assert postgresql.psql(f"select has_schema_privilege('{role}', 'data', 'USAGE'),"
                           f" has_schema_privilege('{role}', 'data', 'CREATE')", db) == "t|f"
    assert pg.plan_exit_code() == 0

    # The role renamed and limited otherwise, the database following it, the schema given to
    # the superuser: each in place; the grant, which names the role, is made again, wider.
    renamed = postgresql.prefix + "service"
    pg.write(everything(postgresql, role=renamed, limit=10, privileges='"USAGE", "CREATE"',
                        owner='"postgres"'))
    code, plan = pg.plan()
    assert planned_actions(plan) == {"postgresql_role.app": ["update"],
                                     "postgresql_database.db": ["update"],
                                     "postgresql_schema.s": ["update"],
                                     "postgresql_grant.g": ["delete", "create"]}
    pg.apply()
    assert postgresql.psql(f"select rolconnlimit from pg_roles where rolname = '{renamed}'") == "10"
    assert postgresql.psql(f"select has_schema_privilege('{renamed}', 'data', 'CREATE')", db) == "t"
    assert pg.plan_exit_code() == 0

    # Changed with psql: logins refused and another password. The next plan puts both back,
    # and the role logs in with its own password again.
    postgresql.psql(f"alter role {renamed} nologin password 'someone-elses'")
    code, plan = pg.plan()
    assert planned_actions(plan) == {"postgresql_role.app": ["update"]}
    pg.apply()
    assert postgresql.psql(f"select rolcanlogin from pg_roles where rolname = '{renamed}'") == "t"
    assert pg.plan_exit_code() == 0

    # Forgotten and imported: the same objects; the role's password (never readable) is written
    # once more, then nothing is left to change.
    for address in ("postgresql_role.app", "postgresql_database.db", "postgresql_schema.s",
                    "postgresql_grant.g"):
        pg.run("state", "rm", address)
    pg.run("import", "-input=false", "postgresql_role.app", renamed)
    pg.run("import", "-input=false", "postgresql_database.db", db)
    pg.run("import", "-input=false", "postgresql_schema.s", f"{db}.data")
    pg.run("import", "-input=false", "postgresql_grant.g", f"{db}/{renamed}/schema/data")
    imported = resources(pg.state())
    assert imported["postgresql_grant.g"]["values"]["privileges"] == ["CREATE", "USAGE"]
    assert imported["postgresql_schema.s"]["values"]["owner"] == "postgres"
    code, plan = pg.plan()
    assert planned_actions(plan) == {"postgresql_role.app": ["update"]}
    pg.apply()
    assert pg.plan_exit_code() == 0

    pg.destroy()
    assert postgresql.psql(f"select count(*) from pg_roles where rolname = '{renamed}'") == "0"
    assert postgresql.psql(f"select count(*) from pg_database where datname = '{db}'") == "0"


def role_only(postgresql, **options) -> str:
    return provider(postgresql, **options) + f"""
resource "postgresql_role" "r" {{
  name = "{postgresql.prefix}r"
}}
"""


def test_a_certificate_for_another_name_or_from_an_unknown_ca_is_refused(pg, postgresql):
    pg.write(role_only(postgresql, host="127.0.0.1"))
    text = squash(pg.run("apply", "-auto-approve", "-input=false", ok=(1,)).stderr)
    assert "certificate verify failed: IP address mismatch" in text, text

    pg.write(role_only(postgresql, ca=False))
    text = squash(pg.run("apply", "-auto-approve", "-input=false", ok=(1,)).stderr)
    assert "certificate verify failed: " in text, text

    # TLS without checking the certificate, when asked for.
    pg.write(role_only(postgresql, host="127.0.0.1", sslmode="require", ca=False))
    pg.apply()
    assert postgresql.psql(
        f"select count(*) from pg_roles where rolname = '{postgresql.prefix}r'") == "1"
    pg.destroy()


def test_a_wrong_password_is_a_clear_error_that_shows_no_password(pg, postgresql):
    wrong = "not-the-password-2718"
    pg.write(role_only(postgresql, password=wrong))
    result = pg.run("apply", "-auto-approve", "-input=false", ok=(1,))
    text = squash(result.stderr)
    assert 'password authentication failed for user "postgres"' in text, text
    assert wrong not in result.stdout + result.stderr
    assert wrong not in pg.log.read_text(errors="replace")
