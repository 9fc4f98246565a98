// Offline schema validation of Kubernetes manifests with kubernetes-models (generated from
// the Kubernetes OpenAPI spec) and its third-party packages for KEDA and the Prometheus
// Operator CRDs. Each model's validate() runs the generated JSON-schema validator.
import { Namespace, ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import {
  PrometheusRule,
  ServiceMonitor,
} from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { str, type JsonObject } from './deploy-files';

interface Validatable {
  validate(): void;
}

/** Builds the model for one manifest; the constructors accept the manifest's plain object. */
type Factory = (manifest: JsonObject) => Validatable;

// Manifests are parsed YAML of unknown shape: checking that shape is what validate() is for.
const MODELS: Record<string, Factory> = {
  'v1/Namespace': (m) => new Namespace(m),
  'v1/ConfigMap': (m) => new ConfigMap(m),
  'v1/Secret': (m) => new Secret(m),
  'v1/Service': (m) => new Service(m),
  'apps/v1/Deployment': (m) => new Deployment(m),
  'policy/v1/PodDisruptionBudget': (m) => new PodDisruptionBudget(m),
  'autoscaling/v2/HorizontalPodAutoscaler': (m) => new HorizontalPodAutoscaler(m),
  'keda.sh/v1alpha1/ScaledObject': (m) => new ScaledObject(m as never),
  'monitoring.coreos.com/v1/ServiceMonitor': (m) => new ServiceMonitor(m as never),
  'monitoring.coreos.com/v1/PrometheusRule': (m) => new PrometheusRule(m as never),
};

/** Validates a manifest against its kind's schema; returns the error text, or undefined when valid. */
export function schemaError(manifest: JsonObject): string | undefined {
  const key = `${str(manifest.apiVersion)}/${str(manifest.kind)}`;
  const factory = MODELS[key];
  if (factory === undefined) return `no schema for ${key}`;
  try {
    factory(manifest).validate();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
