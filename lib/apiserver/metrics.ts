// Prometheus metrics with upstream names and labels (DESIGN.md §2.11).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FeatureGates } from '../api/featureGates';
import { featureEnabledMetric } from '../api/product';

const requestLabels = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

// Upstream's buckets for apiserver_request_duration_seconds.
const requestBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const etcdBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

/** The metric verb: the API verb uppercased, as upstream's installer names its actions. */
export function metricVerb(apiVerb: string, isApply = false): string {
  switch (apiVerb) {
    case 'create':
      return 'POST';
    case 'update':
      return 'PUT';
    case 'patch':
      return isApply ? 'APPLY' : 'PATCH';
    default:
      return apiVerb.toUpperCase();
  }
}

export interface RequestMetricLabels {
  verb: string;
  dryRun: boolean;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** 'cluster' | 'namespace' | 'resource' | '' (non-resource) */
  scope: string;
}

export class ApiServerMetrics {
  readonly registry = new Registry();
  private readonly requestTotal: Counter<string>;
  private readonly requestDuration: Histogram<string>;
  private readonly etcdDuration: Histogram<string>;
  readonly storageObjects: Gauge<string>;
  readonly longRunning: Gauge<string>;
  readonly terminatedWatchers: Counter<string>;
  private storedObjectCounts: (() => Promise<Record<string, number>>) | undefined;
  /** Ours, not upstream's: the watch budget's bytes held now and at most (lib/machinery/watchBudget.ts). */
  private watchBudget: { readonly total: number; readonly peak: number; readonly limitBytes: number } | undefined;
  /** Audit events written to the log backend, and those lost (buffer full or write errors). */
  readonly auditEvents: Counter<string>;
  readonly auditErrors: Counter<string>;
  readonly watchEvents: Counter<string>;
  readonly watchEventSizes: Histogram<string>;
  readonly watchCacheEventsReceived: Counter<string>;
  readonly watchCacheConsistentReads: Counter<string>;
  readonly watchCacheResourceVersion: Gauge<string>;
  readonly requestedDeprecatedApis: Gauge<string>;
  /** Upstream's validating admission policy metrics (policy/validating/metrics). */
  readonly policyChecks: Counter<string>;
  readonly policyCheckDuration: Histogram<string>;
  readonly featureEnabled: Gauge<string>;
  /** Ours, not upstream's: glibc malloc_trim calls after full GCs (cmd/freedMemory.ts), and their time. */
  readonly mallocTrims: Counter<string>;
  readonly mallocTrimSeconds: Counter<string>;

  constructor(opts: { storageObjectCounts?: () => Promise<Record<string, number>> } = {}) {
    collectDefaultMetrics({ register: this.registry });
    this.requestTotal = new Counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labelNames: [...requestLabels, 'code'],
      registers: [this.registry],
    });
    this.requestDuration = new Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labelNames: [...requestLabels],
      buckets: requestBuckets,
      registers: [this.registry],
    });
    this.etcdDuration = new Histogram({
      name: 'etcd_request_duration_seconds',
      help: 'Etcd request latency in seconds for each operation and object type.',
      labelNames: ['operation', 'type'],
      buckets: etcdBuckets,
      registers: [this.registry],
    });
    this.longRunning = new Gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.',
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
      registers: [this.registry],
    });
    this.auditEvents = new Counter({
      name: 'apiserver_audit_event_total',
      help: 'Counter of audit events generated and sent to the audit backend.',
      registers: [this.registry],
    });
    this.auditErrors = new Counter({
      name: 'apiserver_audit_error_total',
      help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
      labelNames: ['plugin'],
      registers: [this.registry],
    });
    this.terminatedWatchers = new Counter({
      name: 'apiserver_terminated_watchers_total',
      help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
      labelNames: ['group', 'version', 'resource'],
      registers: [this.registry],
    });
    const budget = (): ApiServerMetrics['watchBudget'] => this.watchBudget;
    new Gauge({
      name: 'apiserver_watch_unsent_bytes',
      help: 'svc-apiserver only: bytes of watch events written to clients and not yet sent, plus those queued by dedicated storage watches for paused clients, over all watches.',
      registers: [this.registry],
      collect(): void {
        this.set(budget()?.total ?? 0);
      },
    });
    new Gauge({
      name: 'apiserver_watch_unsent_bytes_peak',
      help: 'svc-apiserver only: the highest apiserver_watch_unsent_bytes since the start, including the one write that crossed the limit before watchers were cut off.',
      registers: [this.registry],
      collect(): void {
        this.set(budget()?.peak ?? 0);
      },
    });
    new Gauge({
      name: 'apiserver_watch_unsent_bytes_limit',
      help: 'svc-apiserver only: --max-watch-unsent-bytes, the bound on apiserver_watch_unsent_bytes.',
      registers: [this.registry],
      collect(): void {
        this.set(budget()?.limitBytes ?? 0);
      },
    });
    this.watchEvents = new Counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labelNames: ['group', 'version', 'kind'],
      registers: [this.registry],
    });
    this.watchEventSizes = new Histogram({
      name: 'apiserver_watch_events_sizes',
      help: 'Watch event size distribution in bytes',
      labelNames: ['group', 'version', 'kind'],
      // Upstream: exponential from 1024, factor 2, 8 buckets.
      buckets: [1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072],
      registers: [this.registry],
    });
    this.watchCacheEventsReceived = new Counter({
      name: 'apiserver_watch_cache_events_received_total',
      help: 'Counter of events received in watch cache broken by resource type.',
      labelNames: ['group', 'resource'],
      registers: [this.registry],
    });
    this.watchCacheConsistentReads = new Counter({
      name: 'apiserver_watch_cache_consistent_read_total',
      help: 'Counter for consistent reads from cache.',
      labelNames: ['group', 'resource', 'success', 'fallback'],
      registers: [this.registry],
    });
    this.watchCacheResourceVersion = new Gauge({
      name: 'apiserver_watch_cache_resource_version',
      help: 'Current resource version of watch cache broken by resource type.',
      labelNames: ['group', 'resource'],
      registers: [this.registry],
    });
    this.requestedDeprecatedApis = new Gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      registers: [this.registry],
    });
    const policyLabels = ['policy', 'policy_binding', 'error_type', 'enforcement_action'];
    this.policyChecks = new Counter({
      name: 'apiserver_validating_admission_policy_check_total',
      help: 'Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken.',
      labelNames: policyLabels,
      registers: [this.registry],
    });
    this.policyCheckDuration = new Histogram({
      name: 'apiserver_validating_admission_policy_check_duration_seconds',
      help: 'Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken.',
      labelNames: policyLabels,
      buckets: [0.0000005, 0.001, 0.01, 0.1, 1.0],
      registers: [this.registry],
    });
    this.mallocTrims = new Counter({
      name: 'apiserver_malloc_trims_total',
      help: 'svc-apiserver only: calls of glibc malloc_trim after full garbage collections, by whether memory was given back to the kernel.',
      labelNames: ['released'],
      registers: [this.registry],
    });
    this.mallocTrimSeconds = new Counter({
      name: 'apiserver_malloc_trim_seconds_total',
      help: 'svc-apiserver only: time spent in glibc malloc_trim, which blocks the event loop while it runs.',
      registers: [this.registry],
    });
    this.featureEnabled = new Gauge({
      name: featureEnabledMetric.name,
      help: featureEnabledMetric.help,
      labelNames: ['name', 'stage'],
      registers: [this.registry],
    });
    this.storedObjectCounts = opts.storageObjectCounts;
    const counts = (): (() => Promise<Record<string, number>>) | undefined => this.storedObjectCounts;
    this.storageObjects = new Gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      labelNames: ['resource'],
      registers: [this.registry],
      async collect(): Promise<void> {
        const count = counts();
        if (!count) return;
        try {
          const counted = await count();
          // Only resources installed now: a removed one's series goes with it.
          this.reset();
          for (const [resource, n] of Object.entries(counted)) this.set({ resource }, n);
        } catch {
          // Storage unreachable: keep the last values rather than failing the scrape.
        }
      },
    });
  }

  /** Where apiserver_storage_objects comes from, when the stores are built after the metrics (start()'s storage step). */
  trackStoredObjects(counts: () => Promise<Record<string, number>>): void {
    this.storedObjectCounts = counts;
  }

  /** Drops a removed resource's watch cache series (upstream deletes a CRD's likewise). */
  forgetResource(r: { group: string; resource: string }): void {
    this.watchCacheEventsReceived.remove(r);
    this.watchCacheResourceVersion.remove(r);
    for (const success of ['true', 'false']) {
      for (const fallback of ['true', 'false']) this.watchCacheConsistentReads.remove({ ...r, success, fallback });
    }
  }

  /** The watch budget whose bytes the apiserver_watch_unsent_bytes gauges report. */
  trackWatchBudget(budget: { readonly total: number; readonly peak: number; readonly limitBytes: number }): void {
    this.watchBudget = budget;
  }

  observeRequest(l: RequestMetricLabels, code: number, seconds: number): void {
    const labels = {
      verb: l.verb,
      dry_run: l.dryRun ? 'All' : '',
      group: l.group,
      version: l.version,
      resource: l.resource,
      subresource: l.subresource,
      scope: l.scope,
      component: 'apiserver',
    };
    this.requestTotal.inc({ ...labels, code: String(code) });
    this.requestDuration.observe(labels, seconds);
  }

  /** Upstream's featureGate.AddMetrics: one series per gate, 1 when enabled, stage "" for GA. */
  recordFeatures(features: Pick<FeatureGates, 'states'>): void {
    for (const f of features.states()) this.featureEnabled.set({ name: f.name, stage: f.stage }, f.enabled ? 1 : 0);
  }

  /** Hook for lib/etcd's observe option; type is the resource prefix of the key. */
  observeEtcd(operation: string, key: string, seconds: number): void {
    const m = /^\/[^/]+\/([^/]+)/.exec(key);
    this.etcdDuration.observe({ operation, type: m ? m[1] : '' }, seconds);
  }
}
