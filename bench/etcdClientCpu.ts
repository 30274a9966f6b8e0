// Client CPU per etcd call through Etcd3Storage (docs/perf/README.md, "Why create and update
// still miss"): 20,000 gets of one key (a Range each), 32 in flight, against a throwaway etcd;
// process.cpuUsage() of this process divided by the calls. etcd runs in its own process, so its
// CPU is not counted. Run: node dist/bench/bench/etcdClientCpu.js [calls] [inflight]
import { Etcd3Storage } from '../lib/etcd/etcd3';
import { startEtcd } from '../lib/etcd/testing/etcdServer';

async function run(s: Etcd3Storage, key: string, calls: number, inflight: number): Promise<{ cpuUs: number; wallMs: number }> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (next++ < calls) await s.get(key);
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: (cpu.user + cpu.system) / calls, wallMs: Number(process.hrtime.bigint() - t0) / 1e6 };
}

async function main(): Promise<void> {
  const calls = Number(process.argv[2] ?? 20_000);
  const inflight = Number(process.argv[3] ?? 32);
  const etcd = await startEtcd();
  const s = new Etcd3Storage({ endpoints: [etcd.endpoint] });
  try {
    const key = '/bench/etcd-client-cpu';
    // A ServiceAccount-sized value, as the apiserver's GETs read.
    await s.create(key, Buffer.alloc(1500, 0x61));
    await run(s, key, 2000, inflight); // warm-up (JIT, connection)
    const rounds = [];
    for (let i = 0; i < 3; i++) rounds.push(await run(s, key, calls, inflight));
    const sorted = rounds.map((r) => r.cpuUs).sort((a, b) => a - b);
    process.stdout.write(
      `${calls} gets, ${inflight} in flight, 3 rounds: client CPU per call ${rounds.map((r) => r.cpuUs.toFixed(1)).join(' / ')} µs ` +
        `(median ${sorted[1].toFixed(1)} µs); wall ${rounds.map((r) => Math.round(r.wallMs)).join(' / ')} ms\n`,
    );
  } finally {
    await s.close();
    await etcd.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});
