#!/bin/sh
# Entrypoint of the local PostgreSQL stand-in (deploy/docker/local-base.sh): the part of the official
# image's behaviour the compose file relies on. On an empty $PGDATA: initdb with POSTGRES_USER
# (default postgres) and POSTGRES_PASSWORD (scram), create POSTGRES_DB, run
# /docker-entrypoint-initdb.d/*.sh and *.sql; then exec the server listening on every address.
set -eu
: "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
if [ "${1:-postgres}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  [ -n "${POSTGRES_PASSWORD:-}" ] || { echo "POSTGRES_PASSWORD must be set" >&2; exit 1; }
  pwfile="$(mktemp)"; printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  printf "host all all all scram-sha-256\n" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start >/dev/null
  export PGUSER="$POSTGRES_USER" PGHOST=/var/run/postgresql
  [ "$POSTGRES_DB" = postgres ] || psql -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; . "$f" ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 -d "$POSTGRES_DB" -f "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  echo "database initialised"
fi
if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql "$@"
fi
exec "$@"
