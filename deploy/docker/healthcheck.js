// The image's HEALTHCHECK: GET /healthz on this app's own port (DECISIONS.md §10 names and defaults).
const ports = {
  'coordinator-api': ['COORDINATOR_PORT', 8000],
  'pool-service': ['POOL_PORT', 8434],
  'validator-runner': ['VALIDATOR_RUNNER_PORT', 8100],
  'weight-setter': ['WEIGHT_SETTER_PORT', 8200],
  'payout-verifier': ['PAYOUT_VERIFIER_PORT', 8500],
};
const [variable, fallback] = ports[process.env.APP] || [];
if (!variable) {
  console.error(`unknown APP ${process.env.APP}`);
  process.exit(1);
}
const port = process.env[variable] || fallback;
fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(8000) })
  .then((response) => process.exit(response.ok ? 0 : 1))
  .catch(() => process.exit(1));
