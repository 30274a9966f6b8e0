// IPv4 arithmetic for the twin's private network: the bridge takes the subnet's first address,
// members take consecutive addresses from the eleventh on (room for the bridge and spares).
export interface Cidr {
  network: number;
  prefixLength: number;
}

const firstMemberOffset = 10;

function toNumber(ip: string): number {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) throw new Error(`invalid IPv4 address ${JSON.stringify(ip)}`);
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

const toIp = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

export function parseCidr(cidr: string): Cidr {
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(cidr);
  if (!m || Number(m[2]) > 30) throw new Error(`invalid subnet ${JSON.stringify(cidr)} (want a.b.c.d/n, n ≤ 30)`);
  const prefixLength = Number(m[2]);
  const size = 2 ** (32 - prefixLength);
  const n = toNumber(m[1]);
  if (n % size !== 0) throw new Error(`subnet ${cidr}: ${m[1]} is not the network address of a /${prefixLength}`);
  return { network: n, prefixLength };
}

/** The gateway (bridge) address and `count` member addresses inside the subnet. */
export function hostAddresses(c: Cidr, count: number): { gateway: string; addresses: string[] } {
  const size = 2 ** (32 - c.prefixLength);
  // The last address is the broadcast address.
  if (firstMemberOffset + count > size - 1) throw new Error(`a /${c.prefixLength} has no room for ${count} members from offset ${firstMemberOffset}`);
  return { gateway: toIp(c.network + 1), addresses: Array.from({ length: count }, (_, i) => toIp(c.network + firstMemberOffset + i)) };
}
