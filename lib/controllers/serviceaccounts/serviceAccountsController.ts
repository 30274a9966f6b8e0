// The serviceaccount controller (upstream pkg/controller/serviceaccount/serviceaccounts_controller.go):
// every active namespace has a `default` ServiceAccount. A namespace added or updated, or one of
// these accounts deleted, queues the namespace; a sync creates what is missing. Terminating
// namespaces are left alone (the server would refuse the create anyway).
import type { Namespace, ServiceAccount } from '../../api';
import { apiVersionOf, serviceaccounts } from '../../api';
import type { Clock, RestClient } from '../../client';
import { ClientApiError, isAlreadyExists, realClock } from '../../client';
import type { Controller, ControllerLog, InformerView, WorkQueueMetricsSink } from '../controller';
import { errorMessage, InstrumentedWorkQueue, noWorkQueueMetrics, runWorkers, silentLog, waitForCacheSync } from '../controller';

export const serviceAccountsControllerName = 'serviceaccount';

/** The status cause the server attaches when a namespace is terminating (v1.NamespaceTerminatingCause). */
const namespaceTerminatingCause = 'NamespaceTerminating';

export type ServiceAccountCreator = Pick<RestClient, 'create'>;

export interface ServiceAccountsControllerOptions {
  client: ServiceAccountCreator;
  namespaces: InformerView<Namespace>;
  serviceAccounts: InformerView<ServiceAccount>;
  /** Names ensured in every namespace; default ["default"]. */
  serviceAccountNames?: readonly string[];
  /** Upstream runs this controller with one worker. */
  workers?: number;
  clock?: Clock;
  log?: ControllerLog;
  queueMetrics?: WorkQueueMetricsSink;
}

function hasStatusCause(e: unknown, reason: string): boolean {
  return e instanceof ClientApiError && (e.status.details?.causes ?? []).some((c) => c.reason === reason);
}

export class ServiceAccountsController implements Controller {
  readonly name = serviceAccountsControllerName;
  readonly queue: InstrumentedWorkQueue<string>;
  private readonly client: ServiceAccountCreator;
  private readonly namespaces: InformerView<Namespace>;
  private readonly serviceAccounts: InformerView<ServiceAccount>;
  private readonly names: readonly string[];
  private readonly workers: number;
  private readonly clock: Clock;
  private readonly log: ControllerLog;

  constructor(opts: ServiceAccountsControllerOptions) {
    this.client = opts.client;
    this.namespaces = opts.namespaces;
    this.serviceAccounts = opts.serviceAccounts;
    this.names = opts.serviceAccountNames ?? ['default'];
    this.workers = opts.workers ?? 1;
    this.clock = opts.clock ?? realClock;
    this.log = opts.log ?? silentLog;
    this.queue = new InstrumentedWorkQueue<string>(this.name, opts.queueMetrics ?? noWorkQueueMetrics, { clock: this.clock });
    const enqueue = (ns: Namespace): void => {
      if (ns.metadata?.name) this.queue.add(ns.metadata.name);
    };
    this.namespaces.addEventHandler({ onAdd: enqueue, onUpdate: (_old, ns) => enqueue(ns) });
    this.serviceAccounts.addEventHandler({
      onDelete: (sa) => {
        if (sa.metadata?.namespace) this.queue.add(sa.metadata.namespace);
      },
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    this.log.info('Starting controller', { controller: this.name });
    try {
      if (!(await waitForCacheSync(signal, this.serviceAccounts, this.namespaces))) return;
      await runWorkers(this.queue, this.workers, (key) => this.processNext(key, signal), signal, (key, err) =>
        this.log.error(`${key} failed with : ${errorMessage(err)}`, { namespace: key }),
      );
    } finally {
      this.queue.shutDown();
      this.log.info('Shutting down controller', { controller: this.name });
    }
  }

  private async processNext(key: string, signal: AbortSignal): Promise<void> {
    try {
      await this.syncNamespace(key, signal);
      this.queue.forget(key);
    } catch (e) {
      // Shutting down: the request was cut short on purpose, and the queue takes no retries.
      if (signal.aborted) return;
      // Upstream's message, spacing included.
      this.log.error(`${key} failed with : ${errorMessage(e)}`, { namespace: key });
      this.queue.addRateLimited(key);
    }
  }

  /** Creates the missing accounts of namespace `key`; throws the failures (joined) to be retried. */
  async syncNamespace(key: string, signal?: AbortSignal): Promise<void> {
    const started = this.clock.now();
    try {
      const ns = this.namespaces.getByName(key);
      if (!ns) return;
      // Not active: creating anything would be refused, and pointless.
      if (ns.status?.phase !== 'Active') return;
      const failures: string[] = [];
      for (const name of this.names) {
        if (this.serviceAccounts.getByName(name, key)) continue;
        const sa: ServiceAccount = { apiVersion: apiVersionOf(serviceaccounts), kind: serviceaccounts.kind, metadata: { name, namespace: key } };
        try {
          await this.client.create<ServiceAccount>(serviceaccounts, sa, { signal });
          this.log.debug('Created service account', { namespace: key, serviceAccount: name });
        } catch (e) {
          if (isAlreadyExists(e) || hasStatusCause(e, namespaceTerminatingCause)) continue;
          failures.push(errorMessage(e));
        }
      }
      // utilerrors.Flatten(NewAggregate(...)): one message alone, several in brackets.
      if (failures.length === 1) throw new Error(failures[0]);
      if (failures.length > 1) throw new Error(`[${failures.join(', ')}]`);
    } finally {
      this.log.debug('Finished syncing namespace', { namespace: key, durationMs: this.clock.now() - started });
    }
  }
}
