// IP address text → bytes, so SANs written in different notations (::1 vs 0:0:…:1) compare equal.
import { isIPv4, isIPv6 } from 'node:net';

export function ipToBytes(ip: string): Buffer | undefined {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) return undefined;
  let text = ip;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    tail.push(...v4[1].split('.').map(Number));
    text = text.slice(0, -v4[1].length) + '0:0'; // placeholder groups, replaced below
  }
  const [head, rest] = text.split('::');
  const parse = (s: string | undefined): number[] => (s ? s.split(':').filter((g) => g !== '').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const r = parse(rest);
  const groups = rest === undefined ? h : [...h, ...new Array<number>(8 - h.length - r.length).fill(0), ...r];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(g, i * 2));
  if (tail.length) Buffer.from(tail).copy(out, 12);
  return out;
}

export function sameIP(a: string, b: string): boolean {
  const x = ipToBytes(a);
  const y = ipToBytes(b);
  return x !== undefined && y !== undefined && x.equals(y);
}
