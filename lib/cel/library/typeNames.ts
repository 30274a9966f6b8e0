// Library type names usable as values, as in upstream's tests (`type(ip('…')) == net.IP`):
// `net.IP`, `net.CIDR`, `kubernetes.Quantity`, `kubernetes.URL`, `kubernetes.NamedFormat`.
// cel-js resolves no dotted type identifiers, so `net` and `kubernetes` are constants whose
// fields hold the registered types' type values, filled in once the types exist.
import type { CelLibrary } from './types';

export class NetTypes {
  IP?: unknown;
  CIDR?: unknown;
}
export class KubernetesTypes {
  Quantity?: unknown;
  URL?: unknown;
  NamedFormat?: unknown;
}

const net = new NetTypes();
const kubernetes = new KubernetesTypes();

export const typeNamesLibrary: CelLibrary = {
  types: [
    { name: 'kubernetes.NetTypes', ctor: NetTypes, fields: { IP: 'type', CIDR: 'type' } },
    { name: 'kubernetes.KubernetesTypes', ctor: KubernetesTypes, fields: { Quantity: 'type', URL: 'type', NamedFormat: 'type' } },
  ],
  functions: [],
  constants: [
    { name: 'net', type: 'kubernetes.NetTypes', value: net },
    { name: 'kubernetes', type: 'kubernetes.KubernetesTypes', value: kubernetes },
  ],
};

/** Expressions whose type() gives each library type, evaluated once the libraries are registered. */
export const typeValueSources: readonly [object, string, string][] = [
  [net, 'IP', 'type(ip("0.0.0.0"))'],
  [net, 'CIDR', 'type(cidr("0.0.0.0/0"))'],
  [kubernetes, 'Quantity', 'type(quantity("0"))'],
  [kubernetes, 'URL', 'type(url("/"))'],
  [kubernetes, 'NamedFormat', 'type(format.uri())'],
];
