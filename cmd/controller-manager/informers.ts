// One informer per resource for all controllers (client-go's SharedInformerFactory): the
// serviceaccount and namespace controllers share the namespace informer, the three CSR
// controllers the CSR informer. Created on first request, started together, stopped together.
import type { ApiObject } from '../../lib/api/meta';
import { Informer } from '../../lib/client';
import type { Clock, ResourceDescriptor, RestClient } from '../../lib/client';

export class SharedInformers {
  private readonly informers = new Map<string, Informer<ApiObject>>();
  private started = false;

  constructor(
    private readonly client: Pick<RestClient, 'listWatch'>,
    private readonly opts: { clock?: Clock; onError?: (resource: string, err: unknown) => void } = {},
  ) {}

  /** The shared informer of `resource`; one asked for after start() starts at once. */
  for<T extends ApiObject>(resource: ResourceDescriptor): Informer<T> {
    const key = `${resource.group}/${resource.version}/${resource.resource}`;
    let inf = this.informers.get(key);
    if (!inf) {
      const onError = this.opts.onError;
      inf = new Informer<ApiObject>({
        listWatch: this.client.listWatch<ApiObject>(resource),
        clock: this.opts.clock,
        onError: onError ? (e) => onError(resource.resource, e) : undefined,
      });
      this.informers.set(key, inf);
      if (this.started) inf.start();
    }
    return inf as unknown as Informer<T>;
  }

  start(): void {
    this.started = true;
    for (const inf of this.informers.values()) inf.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
