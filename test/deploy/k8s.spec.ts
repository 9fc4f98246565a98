import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  asArray,
  asObject,
  at,
  deployableCommand,
  readRepoFile,
  type Json,
  type JsonObject,
  str,
} from './deploy-files';
import { batchNames } from '@verity/batch';
import { CHECK_TIMEOUT_MS } from '@verity/platform';
import { render, resourceId } from './kubectl-kustomize';
import { schemaError } from './k8s-models';
import { checkVerityEnv } from './verity-env';

const BASE = 'deploy/k8s/base';
const OVERLAY = 'deploy/k8s/overlays/example';
const APPS = ['api', 'ingest', 'scorer'] as const;

const find = (rs: JsonObject[], kind: string, name: string): JsonObject => {
  const r = rs.find((x) => x.kind === kind && at(x, 'metadata', 'name') === name);
  assert.ok(r, `${kind} ${name}`);
  return r;
};
const container = (d: JsonObject): JsonObject =>
  asObject(at(d, 'spec', 'template', 'spec', 'containers', 0), 'container');
const podLabels = (d: JsonObject) =>
  asObject(at(d, 'spec', 'template', 'metadata', 'labels') ?? {}, 'labels');
const matches = (selector: Json | undefined, labels: JsonObject) =>
  Object.entries(asObject(selector ?? {}, 'selector')).every(([k, v]) => labels[k] === v);

/** The environment a container sees: envFrom sources in order, then env entries. */
function containerEnv(rs: JsonObject[], c: JsonObject): Record<string, string> {
  const env: Record<string, string> = {};
  for (const src of asArray(c.envFrom, 'envFrom')) {
    const cm = at(src, 'configMapRef', 'name');
    const sec = at(src, 'secretRef', 'name');
    if (typeof cm === 'string') Object.assign(env, at(find(rs, 'ConfigMap', cm), 'data'));
    if (typeof sec === 'string') {
      const secret = find(rs, 'Secret', sec);
      Object.assign(env, at(secret, 'stringData'));
      for (const [k, v] of Object.entries(asObject(at(secret, 'data') ?? {}, 'data'))) {
        env[k] = Buffer.from(str(v), 'base64').toString('utf8');
      }
    }
  }
  for (const e of asArray(c.env, 'env')) env[str(at(e, 'name'))] = str(at(e, 'value'));
  return env;
}

/** The trigger watches the topic and group the scorers use (batchNames of their BATCH_NAMESPACE). */
function assertKedaWatchesScorers(trigger: JsonObject, scorerEnv: Record<string, string>): void {
  const names = batchNames(checkVerityEnv(scorerEnv).config?.BATCH_NAMESPACE);
  assert.equal(at(trigger, 'metadata', 'topic'), names.chunksTopic);
  assert.equal(at(trigger, 'metadata', 'consumerGroup'), names.scorerGroup);
}

function checkTree(label: string, rs: JsonObject[]): void {
  describe(label, () => {
    it('every manifest validates against its Kubernetes / CRD schema', () => {
      assert.ok(rs.length >= 15, `${rs.length} resources`);
      for (const r of rs) assert.equal(schemaError(r), undefined, resourceId(r));
      const ids = rs.map(resourceId);
      assert.equal(new Set(ids).size, ids.length, 'no duplicate resources');
    });

    it('gives every deployable a valid Verity configuration', () => {
      for (const app of APPS) {
        const { unknown, config, error } = checkVerityEnv(
          containerEnv(rs, container(find(rs, 'Deployment', `verity-${app}`))),
        );
        assert.deepEqual(unknown, [], app);
        assert.equal(error, undefined, `${app}: ${error}`);
        assert.equal(config?.ROW_BUS, 'kafka');
        assert.equal(config?.JOB_QUEUE, 'bull');
        assert.equal(config?.BLOB_STORE, 's3');
        assert.equal(config?.HOST, '0.0.0.0');
      }
    });

    it('seeds each pod from the image and refreshes the lists into its own writable VERITY_HOME', () => {
      for (const app of APPS) {
        const d = find(rs, 'Deployment', `verity-${app}`);
        const config = checkVerityEnv(containerEnv(rs, container(d))).config;
        assert.equal(config?.DATA_REFRESH_INTERVAL, 'on', app);
        const home = str(config?.VERITY_HOME);
        const mount = asArray(container(d).volumeMounts, 'volumeMounts').find((m) =>
          home.startsWith(`${str(at(m, 'mountPath'))}/`),
        );
        assert.ok(mount, `${app}: VERITY_HOME ${home} is on a mounted volume`);
        const volume = asArray(at(d, 'spec', 'template', 'spec', 'volumes'), 'volumes').find(
          (v) => at(v, 'name') === at(mount, 'name'),
        );
        assert.ok(at(volume, 'emptyDir'), `${app}: a per-pod emptyDir, not shared state`);
      }
    });

    it('probes /healthz and /readyz on the port the app listens on', () => {
      for (const app of APPS) {
        const d = find(rs, 'Deployment', `verity-${app}`);
        const c = container(d);
        const port = asArray(c.ports, 'ports')
          .map((p) => asObject(p, 'port'))
          .find((p) => p.name === 'http');
        assert.equal(str(port?.containerPort), containerEnv(rs, c).PORT, `${app} PORT`);
        assert.equal(at(c, 'livenessProbe', 'httpGet', 'path'), '/healthz');
        assert.equal(at(c, 'readinessProbe', 'httpGet', 'path'), '/readyz');
        assert.equal(at(c, 'startupProbe', 'httpGet', 'path'), '/healthz');
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'])
          assert.equal(at(c, probe, 'httpGet', 'port'), 'http');
        assert.deepEqual(asArray(c.command, 'command'), deployableCommand(app));
      }
    });

    it("gives /readyz at least twice a check's own deadline, so a hanging check never fails the probe", () => {
      for (const app of APPS) {
        const c = container(find(rs, 'Deployment', `verity-${app}`));
        const timeoutSeconds = Number(at(c, 'readinessProbe', 'timeoutSeconds') ?? 1);
        assert.ok(timeoutSeconds * 1000 >= 2 * CHECK_TIMEOUT_MS, `${app}: ${timeoutSeconds} s`);
      }
    });

    it('runs non-root with a read-only root filesystem and bounded resources', () => {
      for (const app of APPS) {
        const d = find(rs, 'Deployment', `verity-${app}`);
        const pod = asObject(at(d, 'spec', 'template', 'spec'), 'pod');
        const c = container(d);
        assert.equal(at(pod, 'securityContext', 'runAsNonRoot'), true);
        assert.equal(at(c, 'securityContext', 'readOnlyRootFilesystem'), true);
        assert.equal(at(c, 'securityContext', 'allowPrivilegeEscalation'), false);
        assert.deepEqual(at(c, 'securityContext', 'capabilities', 'drop'), ['ALL']);
        for (const kind of ['requests', 'limits']) {
          for (const res of ['cpu', 'memory'])
            assert.ok(at(c, 'resources', kind, res), `${app} ${kind}.${res}`);
        }
        const tmp = asArray(c.volumeMounts, 'mounts').find((m) => at(m, 'mountPath') === '/tmp');
        assert.ok(tmp, `${app} has a writable /tmp`);
      }
    });

    it('lets the shutdown budget finish before SIGKILL', () => {
      for (const app of APPS) {
        const d = find(rs, 'Deployment', `verity-${app}`);
        const c = container(d);
        const grace = Number(at(d, 'spec', 'template', 'spec', 'terminationGracePeriodSeconds'));
        assert.equal(grace, 30);
        const cmd = asArray(at(c, 'lifecycle', 'preStop', 'exec', 'command'), 'preStop');
        const preStop = cmd[0] === 'sleep' ? Number(cmd[1]) : 0;
        const budget = Number(containerEnv(rs, c).SHUTDOWN_TIMEOUT_MS) / 1000;
        assert.equal(budget, 25);
        assert.ok(preStop + budget < grace, `${app}: ${preStop} + ${budget} < ${grace}`);
      }
    });

    it('fronts each deployment with a Service and a PodDisruptionBudget', () => {
      for (const app of APPS) {
        const labels = podLabels(find(rs, 'Deployment', `verity-${app}`));
        const svc = find(rs, 'Service', `verity-${app}`);
        assert.ok(matches(at(svc, 'spec', 'selector'), labels), `${app} service selects its pods`);
        assert.equal(at(svc, 'spec', 'ports', 0, 'targetPort'), 'http');
        const pdb = find(rs, 'PodDisruptionBudget', `verity-${app}`);
        assert.ok(
          matches(at(pdb, 'spec', 'selector', 'matchLabels'), labels),
          `${app} PDB selects its pods`,
        );
      }
    });

    it('scales the API on CPU and the scorer on Kafka lag, never both on one target', () => {
      const hpa = find(rs, 'HorizontalPodAutoscaler', 'verity-api');
      assert.deepEqual(at(hpa, 'spec', 'scaleTargetRef'), {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'verity-api',
      });
      assert.equal(at(hpa, 'spec', 'metrics', 0, 'resource', 'name'), 'cpu');
      const so = find(rs, 'ScaledObject', 'verity-scorer');
      assert.equal(at(so, 'spec', 'scaleTargetRef', 'name'), 'verity-scorer');
      const trigger = asObject(at(so, 'spec', 'triggers', 0), 'trigger');
      assert.equal(trigger.type, 'kafka');
      const scorerEnv = containerEnv(rs, container(find(rs, 'Deployment', 'verity-scorer')));
      assertKedaWatchesScorers(trigger, scorerEnv);
      const fromEnv = str(at(trigger, 'metadata', 'bootstrapServersFromEnv'));
      assert.ok(scorerEnv[fromEnv], `${fromEnv} is set in the scorer environment`);
      const partitions = Number(scorerEnv.KAFKA_CHUNK_PARTITIONS);
      assert.ok(Number(at(so, 'spec', 'maxReplicaCount')) <= partitions, 'no idle consumers');
      assert.ok(
        !rs.some(
          (r) =>
            r.kind === 'HorizontalPodAutoscaler' &&
            at(r, 'spec', 'scaleTargetRef', 'name') === 'verity-scorer',
        ),
      );
      // Autoscaled deployments leave replicas to their autoscaler (kubectl apply would reset it).
      for (const app of ['api', 'scorer'])
        assert.equal(at(find(rs, 'Deployment', `verity-${app}`), 'spec', 'replicas'), undefined);
    });

    it('scrapes every Service with one ServiceMonitor', () => {
      const sm = find(rs, 'ServiceMonitor', 'verity');
      const port = at(sm, 'spec', 'endpoints', 0, 'port');
      assert.equal(at(sm, 'spec', 'endpoints', 0, 'path'), '/metrics');
      for (const app of APPS) {
        const svc = find(rs, 'Service', `verity-${app}`);
        assert.ok(
          matches(
            at(sm, 'spec', 'selector', 'matchLabels'),
            asObject(at(svc, 'metadata', 'labels'), 'l'),
          ),
          app,
        );
        assert.ok(
          asArray(at(svc, 'spec', 'ports'), 'ports').some((p) => at(p, 'name') === port),
          `${app} port ${str(port)}`,
        );
      }
    });
  });
}

const base = render(BASE);
const overlay = render(OVERLAY);
checkTree('kubernetes base', base);
checkTree('kubernetes example overlay', overlay);

describe('BATCH_NAMESPACE in a kubernetes overlay (the batch-namespace component)', () => {
  const rs = render('test/deploy/fixtures/batch-namespace');

  it('prefixes the topic and group KEDA watches as the scorers prefix theirs', () => {
    const scorerEnv = containerEnv(rs, container(find(rs, 'Deployment', 'verity-scorer')));
    assert.equal(scorerEnv.BATCH_NAMESPACE, 'acme');
    const trigger = asObject(
      at(find(rs, 'ScaledObject', 'verity-scorer'), 'spec', 'triggers', 0),
      'trigger',
    );
    assertKedaWatchesScorers(trigger, scorerEnv);
    assert.equal(at(trigger, 'metadata', 'topic'), 'acme.verity.batch.chunks');
    for (const r of rs) assert.equal(schemaError(r), undefined, resourceId(r));
  });
});

describe('kubernetes example overlay specifics', () => {
  it('puts namespaced resources in the verity namespace it creates', () => {
    find(overlay, 'Namespace', 'verity');
    for (const r of overlay) {
      if (r.kind !== 'Namespace')
        assert.equal(at(r, 'metadata', 'namespace'), 'verity', resourceId(r));
    }
  });

  it('applies its image, config, secret and autoscaling patches', () => {
    for (const app of APPS)
      assert.equal(
        container(find(overlay, 'Deployment', `verity-${app}`)).image,
        'registry.example.com/verity:0.1.0',
      );
    assert.equal(
      at(find(overlay, 'ConfigMap', 'verity-config'), 'data', 'S3_FORCE_PATH_STYLE'),
      'false',
    );
    assert.equal(
      at(find(overlay, 'ConfigMap', 'verity-config'), 'data', 'ROW_BUS'),
      'kafka',
      'unpatched keys survive',
    );
    const base = at(find(render(BASE), 'Secret', 'verity-secrets'), 'stringData');
    const patched = at(find(overlay, 'Secret', 'verity-secrets'), 'stringData');
    assert.deepEqual(
      Object.keys(asObject(patched, 's')).sort(),
      Object.keys(asObject(base, 'b')).sort(),
    );
    for (const [k, v] of Object.entries(asObject(patched, 's')))
      assert.ok(!str(v).includes('REPLACE_ME'), k);
    assert.equal(
      at(find(overlay, 'HorizontalPodAutoscaler', 'verity-api'), 'spec', 'maxReplicas'),
      20,
    );
  });

  it('labels the ServiceMonitor and the PrometheusRule for kube-prometheus-stack', () => {
    for (const kind of ['ServiceMonitor', 'PrometheusRule']) {
      const labels = at(find(overlay, kind, 'verity'), 'metadata', 'labels');
      assert.equal(at(labels, 'release'), 'kube-prometheus-stack', kind);
      assert.equal(at(labels, 'app.kubernetes.io/part-of'), 'verity', `${kind} keeps base labels`);
    }
  });
});

describe('offline validation tooling', () => {
  it('rejects manifests that break the schema', () => {
    const d = structuredClone(find(base, 'Deployment', 'verity-api'));
    asObject(at(d, 'spec', 'template', 'spec', 'containers', 0, 'ports', 0), 'port').containerPort =
      'eighty';
    assert.match(schemaError(d) ?? '', /containerPort/);
    const so = structuredClone(find(base, 'ScaledObject', 'verity-scorer'));
    delete asObject(so.spec, 'spec').scaleTargetRef;
    assert.match(schemaError(so) ?? '', /scaleTargetRef/);
    assert.match(schemaError({ apiVersion: 'v9', kind: 'Nope' }) ?? '', /no schema/);
  });

  it('documents the validation packages it relies on', () => {
    const doc = readRepoFile('docs/operations.md');
    for (const pkg of [
      'kubernetes-models',
      '@kubernetes-models/keda',
      '@kubernetes-models/prometheus-operator',
    ]) {
      assert.ok(doc.includes(pkg), pkg);
    }
  });
});
