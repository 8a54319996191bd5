#!/usr/bin/env bash
# Renders the overlays and validates them (k8s/check.mjs): Kubernetes JSON schemas + our policy.
# Renders with Debian's kubectl (kubernetes-client, unpacked under deploy/.build/k8s-tools, no
# system install) unless KUBECTL names another; the overlays are written for its kustomize v2 and
# render the same with current kustomize v5. The schemas come from the `kubernetes-models` npm
# package, installed at a pinned version into deploy/.build/k8s-tools (not the project's deps).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="$PWD/deploy/.build/k8s-tools"
OUT="$PWD/deploy/.build/k8s"
mkdir -p "$TOOLS" "$OUT"
if [ -z "${KUBECTL:-}" ]; then
  KUBECTL="$TOOLS/usr/bin/kubectl"
  if [ ! -x "$KUBECTL" ]; then
    (cd "$TOOLS" && { apt-get download kubernetes-client >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get download kubernetes-client >/dev/null; }; } \
      && dpkg-deb -x kubernetes-client_*.deb . && rm -f kubernetes-client_*.deb)
  fi
fi
if [ ! -d "$TOOLS/node_modules/kubernetes-models" ]; then
  npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$TOOLS" kubernetes-models@5.1.0 yaml@2.8.1 >/dev/null
fi
for overlay in production dev validator-runner; do
  "$KUBECTL" kustomize "k8s/overlays/$overlay" > "$OUT/$overlay.yaml"
done
K8S_TOOLS_DIR="$TOOLS" node k8s/check.mjs --self-test "$OUT"/production.yaml "$OUT"/dev.yaml "$OUT"/validator-runner.yaml
