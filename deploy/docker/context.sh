#!/usr/bin/env bash
# Makes the image build context in deploy/.build/context (see deploy/docker/Dockerfile):
#   dist/apps/<app>   the compiled apps (tools/build, the Nx `build` target)
#   node_modules      production dependencies only (`npm ci --omit=dev`, trimmed), redone when the lock changes
#   tini.deb          Debian's tini, the images' init process
#   docker.deb        Debian's docker.io, whose CLI the validator runner's docker sandbox uses
# and deploy/.build/web, the web UI the gateway serves: `npx nx build web` (dist/apps/web) when the
# workspace has the web project, else a placeholder page saying so.
# Then: docker build --build-arg APP=<app> -f deploy/docker/Dockerfile deploy/.build/context
set -euo pipefail
cd "$(dirname "$0")/../.."
APPS=(coordinator-api pool-service validator-runner weight-setter payout-verifier)
CONTEXT=deploy/.build/context
log() { printf '[context] %s\n' "$*" >&2; }
mkdir -p "$CONTEXT"

started=$(date +%s)
node -r @swc-node/register tools/build/main.ts "${APPS[@]}" >&2
rm -rf "$CONTEXT/dist" && mkdir -p "$CONTEXT/dist/apps"
for app in "${APPS[@]}"; do cp -r "dist/apps/$app" "$CONTEXT/dist/apps/$app"; done
log "compiled ${APPS[*]} in $(( $(date +%s) - started )) s"

# Only what decides the installed tree: the lock file and package.json's dependency fields.
lock_hash="$( { node -p 'const p = require("./package.json"); JSON.stringify([p.dependencies, p.overrides])'; cat package-lock.json; } | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$CONTEXT/node_modules.sha256" 2>/dev/null)" != "$lock_hash" ]; then
  started=$(date +%s)
  rm -rf "$CONTEXT/node_modules" "$CONTEXT/npm" && mkdir -p "$CONTEXT/npm"
  cp package.json package-lock.json "$CONTEXT/npm/"
  (cd "$CONTEXT/npm" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  mv "$CONTEXT/npm/node_modules" "$CONTEXT/node_modules" && rm -rf "$CONTEXT/npm"
  # What never runs: source maps, type declarations, markdown (about 40 % of the size).
  find "$CONTEXT/node_modules" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \
    -o -name '*.md' -o -name '*.markdown' \) -delete
  echo "$lock_hash" > "$CONTEXT/node_modules.sha256"
  log "production node_modules in $(( $(date +%s) - started )) s"
fi

for package in tini docker.io; do
  target="$CONTEXT/${package%.io}.deb"
  if [ ! -s "$target" ]; then
    (cd "$CONTEXT" && { apt-get download "$package" >&2 2>/dev/null || { apt-get update -q >&2 && apt-get download "$package" >&2; }; })
    mv "$CONTEXT/${package}"_*.deb "$target"
  fi
done
cp deploy/docker/healthcheck.js "$CONTEXT/healthcheck.js"

WEB=deploy/.build/web
rm -rf "$WEB" && mkdir -p "$WEB"
if [ -f apps/web/project.json ]; then
  npx nx build web --outputStyle=static >&2
  cp -r dist/apps/web/. "$WEB/"
  log "web UI from dist/apps/web"
else
  printf '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Web UI not built</title></head>\n<body><p>The web UI is not part of this checkout (no apps/web).</p></body></html>\n' > "$WEB/index.html"
  log "no apps/web: a placeholder page"
fi
printf '%s\n' "$CONTEXT"
