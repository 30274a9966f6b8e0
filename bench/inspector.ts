// The bench's view into an apiserver it started with node's `--inspect=127.0.0.1:<port>`: a full
// GC and process.memoryUsage() after it (retained memory, not the heap's high-water), and a heap
// snapshot summarised by constructor. The product has no GC or snapshot route of its own; the
// inspector is node's, enabled only on the processes the bench spawns.
import { createWriteStream } from 'node:fs';
import { HeapSnapshotReader, type HeapSummary } from './heapSnapshot';

export interface MemoryUsage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Reply {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
}

export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(r: Record<string, unknown>): void; reject(e: Error): void }>();
  private readonly listeners = new Map<string, (params: Record<string, unknown>) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data)) as Reply;
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message));
        else p?.resolve(msg.result ?? {});
      } else if (msg.method) this.listeners.get(msg.method)?.(msg.params ?? {});
    });
    ws.addEventListener('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('inspector connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to the first target of the inspector listening on 127.0.0.1:port. */
  static async connect(port: number): Promise<Inspector> {
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
    if (!targets.length) throw new Error(`no inspector target on port ${port}`);
    const ws = new WebSocket(targets[0].webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error(`cannot connect to the inspector on port ${port}`)), { once: true });
    });
    return new Inspector(ws);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** memoryAfterGc through a session opened for it alone (none stays attached while load runs). */
  static async memoryAfterGcAt(port: number): Promise<MemoryUsage> {
    const inspector = await Inspector.connect(port);
    try {
      return await inspector.memoryAfterGc();
    } finally {
      inspector.close();
    }
  }

  /** Full GCs (several: weak maps and finalizers free in rounds), then the process's memory. */
  async memoryAfterGc(rounds = 3): Promise<MemoryUsage> {
    for (let i = 0; i < rounds; i++) await this.send('HeapProfiler.collectGarbage');
    const r = await this.send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
    const value = (r.result as { value?: string } | undefined)?.value;
    if (typeof value !== 'string') throw new Error('process.memoryUsage() through the inspector gave no value');
    return JSON.parse(value) as MemoryUsage;
  }

  /**
   * A heap snapshot (V8 collects garbage first), written to file when given, summarised. Large
   * heaps make large snapshots (about the heap's size in JSON): the summary parses it once.
   */
  async heapSnapshot(file?: string): Promise<HeapSummary> {
    const reader = new HeapSnapshotReader();
    const out = file ? createWriteStream(file) : undefined;
    this.listeners.set('HeapProfiler.addHeapSnapshotChunk', (p) => {
      const chunk = String(p.chunk);
      reader.feed(chunk);
      out?.write(chunk);
    });
    try {
      await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
    } finally {
      this.listeners.delete('HeapProfiler.addHeapSnapshotChunk');
      if (out) await new Promise<void>((resolve) => out.end(resolve));
    }
    return reader.summary();
  }

  close(): void {
    this.ws.close();
  }
}
