// The controller manager's /metrics: process metrics, upstream's leader_election_master_status
// and workqueue_* series, and counters of the CSR signer (named with the product prefix).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { metricPrefix } from '../../lib/api';
import type { WorkQueueMetricsSink } from '../../lib/controllers/controller';

/** The product word as a metric prefix ("svc"), derived like the protobuf media type is. */
const prefix = metricPrefix;

export interface CsrSigningMetricsSink {
  onIssued(signerName: string, seconds: number): void;
  onFailed(signerName: string, reason: string): void;
}

export class ControllerManagerMetrics {
  readonly registry = new Registry();
  private readonly leaderStatus: Gauge<'name'>;
  private readonly workqueueAdds: Counter<'name'>;
  private readonly workqueueDepth: Gauge<'name'>;
  private readonly workqueueRetries: Counter<'name'>;
  private readonly workqueueQueueDuration: Histogram<'name'>;
  private readonly workqueueWorkDuration: Histogram<'name'>;
  private readonly csrSigned: Counter<'signer'>;
  private readonly csrFailed: Counter<'signer' | 'reason'>;
  private readonly csrSigningDuration: Histogram<'signer'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.leaderStatus = new Gauge({
      name: 'leader_election_master_status',
      help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.',
      labelNames: ['name'],
      registers,
    });
    this.workqueueAdds = new Counter({ name: 'workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers });
    this.workqueueDepth = new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers });
    this.workqueueRetries = new Counter({ name: 'workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers });
    // client-go's buckets: prometheus.ExponentialBuckets(10e-9, 10, 10), 10 ns … 10 s.
    const durationBuckets = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 0.001, 0.01, 0.1, 1, 10];
    this.workqueueQueueDuration = new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames: ['name'],
      buckets: durationBuckets,
      registers,
    });
    this.workqueueWorkDuration = new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: ['name'],
      buckets: durationBuckets,
      registers,
    });
    this.csrSigned = new Counter({
      name: `${prefix}_csr_signed_total`,
      help: 'Certificates issued by the csrsigning controller, by signer.',
      labelNames: ['signer'],
      registers,
    });
    this.csrFailed = new Counter({
      name: `${prefix}_csr_signing_failed_total`,
      help: 'CertificateSigningRequests the csrsigning controller marked Failed, by signer and reason.',
      labelNames: ['signer', 'reason'],
      registers,
    });
    this.csrSigningDuration = new Histogram({
      name: `${prefix}_csr_signing_duration_seconds`,
      help: 'Time the csrsigning controller took to issue a certificate, by signer.',
      labelNames: ['signer'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
  }

  /** 1 while this process holds the lease `name`, 0 otherwise. */
  setLeader(name: string, leading: boolean): void {
    this.leaderStatus.set({ name }, leading ? 1 : 0);
  }

  readonly workqueue: WorkQueueMetricsSink = {
    created: (name) => {
      this.workqueueAdds.inc({ name }, 0);
      this.workqueueRetries.inc({ name }, 0);
      this.workqueueDepth.set({ name }, 0);
      this.workqueueQueueDuration.zero({ name });
      this.workqueueWorkDuration.zero({ name });
    },
    added: (name) => this.workqueueAdds.inc({ name }),
    depth: (name, depth) => this.workqueueDepth.set({ name }, depth),
    retried: (name) => this.workqueueRetries.inc({ name }),
    queued: (name, seconds) => this.workqueueQueueDuration.observe({ name }, seconds),
    worked: (name, seconds) => this.workqueueWorkDuration.observe({ name }, seconds),
  };

  readonly csrSigning: CsrSigningMetricsSink = {
    onIssued: (signer, seconds) => {
      this.csrSigned.inc({ signer });
      this.csrSigningDuration.observe({ signer }, seconds);
    },
    onFailed: (signer, reason) => this.csrFailed.inc({ signer, reason }),
  };
}
