#!/bin/sh
# First start of the compose Postgres: one database and one login role per service (DECISIONS.md §13),
# each role owning only its database. Passwords come from deploy/.env.
set -eu
for pair in "coordinator:$COORDINATOR_DB_PASSWORD" "pool:$POOL_DB_PASSWORD"; do
  name="${pair%%:*}" password="${pair#*:}"
  psql -v ON_ERROR_STOP=1 -v name="$name" -v password="$password" -d postgres <<'SQL'
CREATE ROLE :"name" LOGIN PASSWORD :'password';
CREATE DATABASE :"name" OWNER :"name";
REVOKE ALL ON DATABASE :"name" FROM PUBLIC;
SQL
done
