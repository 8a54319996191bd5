#!/usr/bin/env bash
# Builds the four app images: rcs/<app>:$IMAGE_TAG (default: the commit's short hash; never `latest`).
#   NODE_IMAGE  base image (default node:20-bookworm-slim; deploy/docker/local-base.sh makes a stand-in)
#   APPS        which apps (default all four)
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGE_TAG="${IMAGE_TAG:-$(git rev-parse --short HEAD)}"
NODE_IMAGE="${NODE_IMAGE:-node:20-bookworm-slim}"
read -r -a apps <<< "${APPS:-coordinator-api pool-service validator-runner weight-setter}"
context="$(deploy/docker/context.sh)"
# BuildKit sends only what changed of the context and caches layers across the four apps (a warm
# rebuild takes seconds, the classic builder re-sends node_modules each time). Docker CLIs from 23
# on need the buildx plugin for it; without it, the classic builder.
if [ -z "${DOCKER_BUILDKIT:-}" ]; then
  if docker buildx version >/dev/null 2>&1 || [ "$(docker version -f '{{.Client.Version}}' | cut -d. -f1)" -lt 23 ]; then
    export DOCKER_BUILDKIT=1
  else
    export DOCKER_BUILDKIT=0
  fi
fi
for app in "${apps[@]}"; do
  started=$(date +%s)
  target=app; [ "$app" = validator-runner ] && target=validator-runner
  docker build -q --build-arg NODE_IMAGE="$NODE_IMAGE" --build-arg APP="$app" --target "$target" -t "rcs/$app:$IMAGE_TAG" \
    -f deploy/docker/Dockerfile "$context" >/dev/null
  printf '[images] rcs/%s:%s %s MB in %s s\n' "$app" "$IMAGE_TAG" \
    "$(docker image inspect -f '{{.Size}}' "rcs/$app:$IMAGE_TAG" | awk '{printf "%.0f", $1/1e6}')" "$(( $(date +%s) - started ))" >&2
done
