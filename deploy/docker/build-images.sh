#!/usr/bin/env bash
# Builds the four app images and the web UI's: rcs/<app>:$IMAGE_TAG (default: the commit's short
# hash; never `latest`).
#   NODE_IMAGE   the apps' base image (default node:20-bookworm-slim; deploy/docker/local-base.sh makes a stand-in)
#   NGINX_IMAGE  the web image's base (default nginx:1.27; stand-in rcs-local/nginx:1.22)
#   APPS         which images (default all six: the five apps and web)
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGE_TAG="${IMAGE_TAG:-$(git rev-parse --short HEAD)}"
NODE_IMAGE="${NODE_IMAGE:-node:20-bookworm-slim}"
NGINX_IMAGE="${NGINX_IMAGE:-nginx:1.27}"
read -r -a apps <<< "${APPS:-coordinator-api pool-service validator-runner weight-setter payout-verifier web}"
context="$(deploy/docker/context.sh)"
# BuildKit sends only what changed of the context and caches layers across the five apps (a warm
# rebuild takes seconds, the classic builder re-sends node_modules each time). Docker CLIs from 23
# on need the buildx plugin for it; without it, the classic builder.
if [ -z "${DOCKER_BUILDKIT:-}" ]; then
  if docker buildx version >/dev/null 2>&1 || [ "$(docker version -f '{{.Client.Version}}' | cut -d. -f1)" -lt 23 ]; then
    export DOCKER_BUILDKIT=1
  else
    export DOCKER_BUILDKIT=0
  fi
fi
# The web image's own small context: the static files context.sh put in deploy/.build/web.
web_context=deploy/.build/web-image
rm -rf "$web_context" && mkdir -p "$web_context"
cp -r deploy/.build/web "$web_context/site"
cp deploy/docker/web-nginx.conf "$web_context/nginx.conf"
cp deploy/docker/web-start.sh "$web_context/start.sh"
for app in "${apps[@]}"; do
  started=$(date +%s)
  if [ "$app" = web ]; then
    docker build -q --build-arg NGINX_IMAGE="$NGINX_IMAGE" -t "rcs/web:$IMAGE_TAG" -f deploy/docker/web.Dockerfile "$web_context" >/dev/null
  else
    target=app; [ "$app" = validator-runner ] && target=validator-runner
    docker build -q --build-arg NODE_IMAGE="$NODE_IMAGE" --build-arg APP="$app" --target "$target" -t "rcs/$app:$IMAGE_TAG" \
      -f deploy/docker/Dockerfile "$context" >/dev/null
  fi
  printf '[images] rcs/%s:%s %s MB in %s s\n' "$app" "$IMAGE_TAG" \
    "$(docker image inspect -f '{{.Size}}' "rcs/$app:$IMAGE_TAG" | awk '{printf "%.0f", $1/1e6}')" "$(( $(date +%s) - started ))" >&2
done
