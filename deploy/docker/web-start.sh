#!/bin/sh
# The web image's entrypoint (deploy/docker/web.Dockerfile): its Content-Security-Policy may connect
# only to the services config.json names (DECISIONS §14), and config.json is the deployment's (a
# ConfigMap in Kubernetes), so their origins are written for nginx here, at start, then the command
# (nginx) runs. RCS_WEB_CONFIG and RCS_WEB_CONNECT move the two files (tests).
set -eu
config="${RCS_WEB_CONFIG:-/etc/rcs-web/config.json}"
out="${RCS_WEB_CONNECT:-/tmp/rcs-web-connect.conf}"
origins=""
for service in coordinator pool; do
  url=$(tr -d '\n' < "$config" | grep -o "\"$service\"[[:space:]]*:[[:space:]]*\"[^\"]*\"" | head -n 1 | sed 's/.*:[[:space:]]*"\(.*\)"$/\1/')
  # scheme://host[:port] only: what CSP compares, and nothing nginx would read as syntax.
  origin=$(printf '%s' "$url" | sed -n 's/^\(https\{0,1\}:\/\/[]A-Za-z0-9.:[-]*[]A-Za-z0-9]\)\(\/.*\)\{0,1\}$/\1/p')
  if [ -z "$origin" ]; then
    echo "rcs-web-start: $config names no http(s) URL for \"$service\" (got \"$url\")" >&2
    exit 1
  fi
  origins="${origins:+$origins }$origin"
done
printf 'set $connect_services "%s";\n' "$origins" > "$out"
exec "$@"
