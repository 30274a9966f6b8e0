// The ValidatingAdmissionPolicy status controller (upstream
// pkg/controller/validatingadmissionpolicystatus, run by kube-apiserver): for each policy whose
// generation is newer than status.observedGeneration, type-check its expressions and write
// status.typeChecking.expressionWarnings and status.observedGeneration through /status as
// field manager "validatingadmissionpolicy-status". Policies are handled one at a time; a
// failed write is retried.
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyStatus } from '../../api';
import { typeCheckPolicy, type KindResolver } from './typeChecking';

export const policyStatusControllerName = 'validatingadmissionpolicy-status';

export interface PolicyStatusDeps {
  resolver: KindResolver;
  /**
   * Writes the status fields onto the stored policy if it is still at `generation` (a newer
   * generation is handled by its own event).
   */
  writeStatus(name: string, generation: number, status: Pick<ValidatingAdmissionPolicyStatus, 'observedGeneration' | 'typeChecking'>): Promise<void>;
  onError?(name: string, err: Error): void;
  retryDelayMs?: number;
}

export class PolicyStatusController {
  private readonly pending = new Map<string, ValidatingAdmissionPolicy>();
  private running = false;
  private stopped = false;
  private timers = new Set<NodeJS.Timeout>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: PolicyStatusDeps) {}

  /** A policy was added or changed (or listed at start). */
  observe(p: ValidatingAdmissionPolicy): void {
    const generation = p.metadata?.generation ?? 0;
    if (generation <= (p.status?.observedGeneration ?? 0)) return;
    this.pending.set(p.metadata?.name ?? '', p);
    void this.drain();
  }

  forget(p: ValidatingAdmissionPolicy): void {
    this.pending.delete(p.metadata?.name ?? '');
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
  }

  /** Resolves when nothing is pending or running (tests). */
  idle(): Promise<void> {
    if (!this.running && this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (!this.stopped && this.pending.size > 0) {
        const [name, p] = this.pending.entries().next().value as [string, ValidatingAdmissionPolicy];
        this.pending.delete(name);
        try {
          await this.reconcile(name, p);
        } catch (e) {
          this.deps.onError?.(name, e as Error);
          const t = setTimeout(() => {
            this.timers.delete(t);
            // A newer version may have arrived meanwhile; it wins.
            if (!this.pending.has(name)) this.observe(p);
          }, this.deps.retryDelayMs ?? 1000);
          this.timers.add(t);
        }
      }
    } finally {
      this.running = false;
      if (this.pending.size === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private async reconcile(name: string, p: ValidatingAdmissionPolicy): Promise<void> {
    const generation = p.metadata?.generation ?? 0;
    const expressionWarnings = typeCheckPolicy(p, this.deps.resolver);
    await this.deps.writeStatus(name, generation, {
      observedGeneration: generation,
      typeChecking: expressionWarnings.length ? { expressionWarnings } : {},
    });
  }
}
