// Validates rendered manifests (k8s/validate.sh renders the overlays): every object against the
// Kubernetes JSON schemas of the `kubernetes-models` npm package, then our own policy
// (DECISIONS.md §13). `--self-test` breaks each rule on a copy and fails unless the policy sees it.
//   node k8s/check.mjs [--self-test] <rendered.yaml>...
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const toolsDir = process.env.K8S_TOOLS_DIR;
if (!toolsDir) throw new Error('K8S_TOOLS_DIR must name the directory holding kubernetes-models and yaml');
const requireTool = createRequire(`${toolsDir}/node_modules/`);
const YAML = requireTool('yaml');

const args = process.argv.slice(2);
const selfTest = args.includes('--self-test');
const files = args.filter((a) => a !== '--self-test');
let passed = 0;
let failed = 0;
const check = (label, ok, detail = '') => {
  if (ok) passed += 1;
  else {
    failed += 1;
    console.log(`FAIL ${label}${detail ? `: ${detail}` : ''}`);
  }
};

// Custom resources kubernetes-models does not know (KEDA's ScaledObject): a JSON schema of ours in
// k8s/schemas, `<group>-<version>-<Kind>.json`, checked by `schemaProblems`.
const SCHEMAS_DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'schemas');
const CUSTOM_RESOURCES = new Set(['keda.sh/v1alpha1/ScaledObject']);

/** What `value` breaks of `schema` (the JSON-schema keywords our schemas use), as `path: problem` lines. */
export function schemaProblems(schema, value, path = '$') {
  const problems = [];
  const typeOf = (v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v);
  if (schema.enum && !schema.enum.includes(value)) return [`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  if (schema.type) {
    const type = typeOf(value);
    if (type !== schema.type && !(schema.type === 'number' && type === 'integer')) return [`${path}: ${type}, expected ${schema.type}`];
  }
  if (typeof value === 'string' && schema.pattern && !new RegExp(schema.pattern).test(value)) problems.push(`${path}: ${JSON.stringify(value)} does not match ${schema.pattern}`);
  if (typeof value === 'number' && schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: ${value} < ${schema.minimum}`);
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) problems.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.items) value.forEach((item, i) => problems.push(...schemaProblems(schema.items, item, `${path}[${i}]`)));
  }
  if (typeOf(value) === 'object') {
    for (const key of schema.required ?? []) if (!(key in value)) problems.push(`${path}: ${key} is required`);
    for (const [key, item] of Object.entries(value)) {
      const known = schema.properties?.[key];
      if (known) problems.push(...schemaProblems(known, item, `${path}.${key}`));
      else if (schema.additionalProperties === false) problems.push(`${path}: unknown field ${key}`);
      else if (typeof schema.additionalProperties === 'object') problems.push(...schemaProblems(schema.additionalProperties, item, `${path}.${key}`));
    }
  }
  return problems;
}

async function modelOf(object) {
  const id = `${object.apiVersion}/${object.kind}`;
  if (CUSTOM_RESOURCES.has(id)) {
    const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, `${id.replaceAll('/', '-')}.json`), 'utf8'));
    return class {
      constructor(data) {
        this.data = data;
      }
      validate() {
        const problems = schemaProblems(schema, this.data);
        if (problems.length > 0) throw new Error(problems.join('; '));
      }
    };
  }
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : [null, object.apiVersion];
  const path = `${toolsDir}/node_modules/kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}.js`;
  const module = await import(pathToFileURL(path).href);
  return module[object.kind];
}

const SECRET_NAME = /PASSWORD|TOKEN|SECRET|MNEMONIC|DATABASE_URL|REDIS_URL|_KEY$|HOTKEYS|WS_URL/;
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);
// The apps that serve /metrics (DECISIONS.md §14): Prometheus scrapes their pods, no Ingress reaches it.
const METRICS_APPS = new Set(['coordinator-api', 'pool-service', 'weight-setter', 'validator-runner', 'payout-verifier']);
const MONITORING_NAMESPACE = 'monitoring';

/** Whether an Ingress path (Kubernetes path-element matching) would route `/metrics` or below it. */
export function reachesMetrics(path, pathType) {
  const p = (path ?? '/').replace(/\/+$/, '');
  if (pathType === 'Exact') return p === '/metrics' || p.startsWith('/metrics/');
  if (pathType === 'Prefix') return p === '' || p === '/metrics' || p.startsWith('/metrics/');
  // ImplementationSpecific: up to the controller (a regex, a plain prefix), so assume it does.
  return true;
}

/** Whether a label selector (matchLabels, and matchExpressions with In) selects these labels. */
function selects(selector, labels) {
  const byLabels = Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector?.matchExpressions ?? []).every((e) => e.operator === 'In' && e.values.includes(labels[e.key]));
  return byLabels && byExpressions;
}

/** Our policy over one overlay's objects: a list of [label, ok, detail]. */
export function policy(name, objects) {
  const results = [];
  const rule = (label, ok, detail) => results.push([`${name}: ${label}`, ok, detail]);
  const byKind = (kind) => objects.filter((o) => o.kind === kind);
  rule('no Secret objects (Secrets are referenced, never committed)', byKind('Secret').length === 0);
  for (const w of objects.filter((o) => WORKLOADS.has(o.kind))) {
    const pod = w.spec.template.spec;
    const id = `${w.kind}/${w.metadata.name}`;
    rule(`${id} does not mount a service account token`, pod.automountServiceAccountToken === false);
    for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
      const cid = `${id}/${c.name}`;
      const sc = c.securityContext ?? {};
      const image = c.image ?? '';
      const tag = image.includes('@') ? 'digest' : image.slice(image.lastIndexOf('/') + 1).split(':')[1];
      rule(`${cid} image has a pinned tag`, tag !== undefined && tag !== 'latest', image);
      rule(`${cid} liveness probe`, Boolean(c.livenessProbe));
      rule(`${cid} readiness probe`, Boolean(c.readinessProbe));
      for (const kind of ['requests', 'limits']) {
        rule(`${cid} ${kind} cpu and memory`, Boolean(c.resources?.[kind]?.cpu && c.resources?.[kind]?.memory));
      }
      rule(`${cid} runs as non-root`, (sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) === true && (sc.runAsUser ?? pod.securityContext?.runAsUser ?? 1) !== 0);
      rule(`${cid} read-only root file system`, sc.readOnlyRootFilesystem === true);
      rule(`${cid} no privilege escalation`, sc.allowPrivilegeEscalation === false && sc.privileged !== true);
      rule(`${cid} drops all capabilities, adds none`, (sc.capabilities?.drop ?? []).includes('ALL') && (sc.capabilities?.add ?? []).length === 0);
      for (const env of c.env ?? []) {
        if (SECRET_NAME.test(env.name)) rule(`${cid} env ${env.name} comes from a Secret`, env.valueFrom?.secretKeyRef !== undefined && env.value === undefined);
      }
    }
  }
  const deployments = byKind('Deployment');
  const scaledObjects = byKind('ScaledObject');
  for (const app of ['coordinator-api', 'pool-service']) {
    if (!deployments.some((d) => d.metadata.name === app)) continue;
    const hpa = byKind('HorizontalPodAutoscaler').some((h) => h.spec.scaleTargetRef.name === app && h.spec.minReplicas >= 1);
    const keda = scaledObjects.filter((s) => s.spec.scaleTargetRef.name === app);
    // DECISIONS §19: KEDA on queue depth and the oldest job's age, beside CPU; KEDA owns the app's only HPA.
    rule(`${app} has an HPA on CPU, or a KEDA ScaledObject with a cpu trigger`, hpa || keda.some((s) => (s.spec.minReplicaCount ?? 0) >= 1 && s.spec.triggers.some((t) => t.type === 'cpu')));
    rule(`${app} is not scaled by both an HPA and a KEDA ScaledObject`, !(hpa && keda.length > 0));
    for (const s of keda) {
      const queries = s.spec.triggers.filter((t) => t.type === 'prometheus').map((t) => t.metadata.query ?? '');
      rule(
        `ScaledObject/${s.metadata.name} scales on waiting and prioritized jobs and on the oldest waiting job`,
        queries.some((q) => q.includes('bullmq_queue_jobs') && q.includes('waiting') && q.includes('prioritized')) &&
          queries.some((q) => q.includes('bullmq_queue_oldest_waiting_seconds')),
      );
    }
    rule(`${app} has a PodDisruptionBudget`, byKind('PodDisruptionBudget').some((p) => p.spec.selector.matchLabels?.['app.kubernetes.io/name'] === app));
  }
  // One owner each: the weight setter of its hotkey, the payout verifier of its verdicts and challenges.
  for (const single of ['weight-setter', 'payout-verifier']) {
    const deployment = deployments.find((d) => d.metadata.name === single);
    if (!deployment) continue;
    rule(`${single} runs one replica`, deployment.spec.replicas === 1);
    rule(`${single} uses the Recreate strategy`, deployment.spec.strategy?.type === 'Recreate');
    rule(`${single} is not autoscaled`, ![...byKind('HorizontalPodAutoscaler'), ...scaledObjects].some((h) => h.spec.scaleTargetRef.name === single));
  }
  if (deployments.some((d) => d.metadata.name === 'web')) {
    rule('web has a PodDisruptionBudget', byKind('PodDisruptionBudget').some((p) => p.spec.selector.matchLabels?.['app.kubernetes.io/name'] === 'web'));
  }
  // /metrics: scraped from the pods (annotations and a NetworkPolicy), never reachable through an Ingress.
  const policies = byKind('NetworkPolicy');
  for (const w of objects.filter((o) => WORKLOADS.has(o.kind) && METRICS_APPS.has(o.spec.template.metadata?.labels?.['app.kubernetes.io/name']))) {
    const id = `${w.kind}/${w.metadata.name}`;
    const labels = w.spec.template.metadata.labels;
    const annotations = w.spec.template.metadata.annotations ?? {};
    const port = Number(annotations['prometheus.io/port']);
    const ports = w.spec.template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.containerPort));
    rule(
      `${id} is annotated for Prometheus (prometheus.io/scrape, /metrics, a container port)`,
      annotations['prometheus.io/scrape'] === 'true' && annotations['prometheus.io/path'] === '/metrics' && ports.includes(port),
      JSON.stringify(annotations),
    );
    rule(
      `${id} accepts the scrape from the ${MONITORING_NAMESPACE} namespace (NetworkPolicy)`,
      policies.some(
        (p) =>
          selects(p.spec.podSelector, labels) &&
          (p.spec.ingress ?? []).some(
            (r) =>
              (r.from ?? []).some((f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === MONITORING_NAMESPACE && !f.podSelector) &&
              (!r.ports || r.ports.some((q) => q.port === port)),
          ),
      ),
    );
  }
  const servesMetrics = (serviceName) => {
    const service = byKind('Service').find((s) => s.metadata.name === serviceName);
    // A Service not in these manifests: assume the worst.
    return !service || METRICS_APPS.has(service.spec.selector?.['app.kubernetes.io/name']);
  };
  for (const ingress of byKind('Ingress')) {
    const id = `Ingress/${ingress.metadata.name}`;
    rule(`${id} has no default backend (only the listed paths are public)`, !ingress.spec.defaultBackend);
    for (const r of ingress.spec.rules ?? []) {
      for (const p of r.http?.paths ?? []) {
        const service = p.backend.service?.name;
        rule(
          `${id} ${r.host} ${p.pathType} ${p.path} does not reach /metrics of ${service}`,
          !(servesMetrics(service) && reachesMetrics(p.path, p.pathType)),
        );
      }
    }
  }
  rule(
    'NetworkPolicy default deny (every pod, ingress and egress)',
    byKind('NetworkPolicy').some(
      (p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)) && !p.spec.ingress && !p.spec.egress,
    ),
  );
  return results;
}

/** Each mutation breaks one rule; the policy must report at least one failure for it. */
const MUTATIONS = [
  ['a liveness probe removed', (o) => delete firstContainer(o).livenessProbe],
  ['a readiness probe removed', (o) => delete firstContainer(o).readinessProbe],
  ['limits removed', (o) => delete firstContainer(o).resources.limits],
  ['the latest tag', (o) => (firstContainer(o).image = 'rcs/coordinator-api:latest')],
  ['no tag', (o) => (firstContainer(o).image = 'rcs/coordinator-api')],
  ['a writable root', (o) => (firstContainer(o).securityContext.readOnlyRootFilesystem = false)],
  ['a capability added', (o) => (firstContainer(o).securityContext.capabilities.add = ['NET_ADMIN'])],
  ['root user', (o) => ((firstContainer(o).securityContext.runAsUser = 0), (firstContainer(o).securityContext.runAsNonRoot = false))],
  ['a secret inline', (o) => firstContainer(o).env.push({ name: 'ADMIN_TOKENS', value: 'x' })],
];
/** Adds a path to the rule of the Ingress whose backend is `service`. */
const addPath = (service, path, pathType) => (objects) => {
  const rule = objects.find((o) => o.kind === 'Ingress').spec.rules.find((r) => r.http.paths[0].backend.service.name === service);
  rule.http.paths.push({ path, pathType, backend: { service: { name: service, port: { name: 'http' } } } });
};
/** Mutations of the /metrics rules, for the overlays with an Ingress. */
const METRICS_MUTATIONS = [
  ['a Prefix / path to the coordinator', addPath('coordinator', '/', 'Prefix')],
  ['an Exact /metrics path to the pool', addPath('pool', '/metrics', 'Exact')],
  ['a Prefix /metrics/ path to the coordinator', addPath('coordinator', '/metrics/', 'Prefix')],
  ['an ImplementationSpecific path to the pool', addPath('pool', '/api', 'ImplementationSpecific')],
  // The web host's Prefix / passes only because its Service is known not to serve /metrics.
  ['the web Service missing behind its Prefix / path', remove('Service', 'web')],
  ['an Ingress default backend', (o) => (o.find((x) => x.kind === 'Ingress').spec.defaultBackend = { service: { name: 'coordinator', port: { name: 'http' } } })],
  ['the scrape annotations removed', (o) => delete o.find((x) => x.kind === 'Deployment' && x.metadata.name === 'pool-service').spec.template.metadata.annotations],
  ['the scrape NetworkPolicy removed', remove('NetworkPolicy', 'allow-prometheus-scrape')],
  ['the web PodDisruptionBudget removed', remove('PodDisruptionBudget', 'web')],
];
/** Mutations of the autoscaling rules, for the overlays that scale with KEDA. */
const KEDA_MUTATIONS = [
  ['an HPA beside a ScaledObject', (o) => o.push({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'x' }, spec: { scaleTargetRef: { name: 'coordinator-api' }, minReplicas: 1 } })],
  ['a ScaledObject without its cpu trigger', (o) => { const s = o.find((x) => x.kind === 'ScaledObject' && x.metadata.name === 'pool-service'); s.spec.triggers = s.spec.triggers.filter((t) => t.type !== 'cpu'); }],
  ['a queue-depth query that misses prioritized jobs', (o) => { for (const t of o.find((x) => x.kind === 'ScaledObject' && x.metadata.name === 'coordinator-api').spec.triggers) if (t.metadata.query) t.metadata.query = t.metadata.query.replace('|prioritized', ''); }],
  ['a ScaledObject on the weight setter', (o) => o.push({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'w' }, spec: { scaleTargetRef: { name: 'weight-setter' }, triggers: [] } })],
];
function remove(kind, name) {
  return (objects) => {
    const index = objects.findIndex((o) => o.kind === kind && o.metadata.name === name);
    if (index < 0) throw new Error(`self-test: no ${kind}/${name} to remove`);
    objects.splice(index, 1);
  };
}
function firstContainer(objects) {
  return objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'coordinator-api').spec.template.spec.containers[0];
}

for (const file of files) {
  const name = basename(file, '.yaml');
  const objects = YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJSON()).filter(Boolean);
  check(`${name}: renders objects`, objects.length > 0);
  for (const object of objects) {
    const label = `${name}: ${object.kind}/${object.metadata?.name} matches the ${object.apiVersion} schema`;
    try {
      const Model = await modelOf(object);
      new Model(object).validate();
      check(label, true);
    } catch (error) {
      check(label, false, String(error.message ?? error).slice(0, 500));
    }
  }
  for (const [label, ok, detail] of policy(name, objects)) check(label, ok, detail);
  if (selfTest && objects.some((o) => o.kind === 'Deployment' && o.metadata.name === 'coordinator-api')) {
    for (const [what, mutate] of MUTATIONS) {
      const copy = structuredClone(objects);
      mutate(copy);
      check(`${name}: the policy refuses ${what}`, policy(name, copy).some(([, ok]) => !ok));
    }
    if (objects.some((o) => o.kind === 'Ingress')) {
      check(`${name}: reachesMetrics keeps the public paths`, ['/api', '/docs', '/healthz', '/metricsx', '/epoch'].every((p) => !reachesMetrics(p, 'Prefix')));
      for (const [what, mutate] of METRICS_MUTATIONS) {
        const copy = structuredClone(objects);
        mutate(copy);
        check(`${name}: the policy refuses ${what}`, policy(name, copy).some(([, ok]) => !ok));
      }
    }
    if (objects.some((o) => o.kind === 'ScaledObject')) {
      for (const [what, mutate] of KEDA_MUTATIONS) {
        const copy = structuredClone(objects);
        mutate(copy);
        check(`${name}: the policy refuses ${what}`, policy(name, copy).some(([, ok]) => !ok));
      }
      const scaled = objects.find((o) => o.kind === 'ScaledObject');
      const misspelt = structuredClone(scaled);
      misspelt.spec.maxReplicas = 10;
      check(`${name}: the ScaledObject schema refuses an unknown field (maxReplicas)`, schemaProblems(JSON.parse(readFileSync(join(SCHEMAS_DIR, 'keda.sh-v1alpha1-ScaledObject.json'), 'utf8')), misspelt).length > 0);
    }
    const copy = structuredClone(objects);
    copy.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' }, data: {} });
    check(`${name}: the policy refuses a Secret object`, policy(name, copy).some(([, ok]) => !ok));
  }
}
console.log(`k8s: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
