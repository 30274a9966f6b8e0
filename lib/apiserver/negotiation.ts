// Accept-header negotiation for API responses (spec §4.4, wire-formats.md §2): JSON, YAML or
// Protobuf (under our name or the upstream alias stock clients send, answered under the name
// asked for), or a Table in JSON or YAML where the endpoint offers one; 406 otherwise. The
// clause order, wildcards and parameters follow apimachinery (lib/codec/negotiate.ts).
import { groups, stockClientMetaGroup } from '../api/product';
import {
  jsonMediaType,
  negotiate,
  protobufAliasMediaTypes,
  protobufMediaTypeInfo,
  yamlMediaType,
  type SupportedMediaType,
} from '../codec/negotiate';
import { errors } from '../machinery/errors';
import type { OutputFormat } from './respond';

/**
 * Table groups answered: ours, and the upstream spelling stock kubectl sends (docs/design.md,
 * "Naming profile for stock clients"); the Table is written under the group asked for.
 */
const tableGroups: readonly string[] = [groups.meta, stockClientMetaGroup];
const tableVersions: readonly string[] = ['v1', 'v1beta1'];

/** Server preference order (wildcards pick the first): JSON, YAML, Protobuf. */
const objectTypes: readonly SupportedMediaType[] = [jsonMediaType, yamlMediaType, protobufMediaTypeInfo, ...protobufAliasMediaTypes];
/** Watch streams exist for JSON and Protobuf only (YAML has no stream form). */
const streamTypes: readonly SupportedMediaType[] = [jsonMediaType, protobufMediaTypeInfo, ...protobufAliasMediaTypes];

const listed = (types: readonly SupportedMediaType[], suffix: string): string =>
  types
    .filter((t) => !protobufAliasMediaTypes.includes(t))
    .map((t) => `${t.mediaType}${suffix}`)
    .join(', ');

export interface ChooseOptions {
  /** The endpoint converts to Table (upstream AllowsMediaTypeTransform: JSON or YAML only). */
  tables?: boolean;
  /** A watch: only types with a stream form are offered. */
  watch?: boolean;
  /** Protobuf is offered (default); discovery documents have no Protobuf schema here. */
  protobuf?: boolean;
}

/**
 * The output for a request. Conversions other than Table (PartialObjectMetadata, …) are not
 * offered, so their clause is skipped and a later clause wins.
 */
export function chooseOutput(accept: string | undefined, pretty: boolean, opts: ChooseOptions = {}): OutputFormat {
  const all = opts.watch ? streamTypes : objectTypes;
  const supported = opts.protobuf === false ? all.filter((t) => t.format !== 'protobuf') : all;
  const r = negotiate(accept?.trim() ? accept : undefined, {
    supported,
    allowsConversion: (t, media) =>
      opts.tables === true &&
      (media.format === 'json' || media.format === 'yaml') &&
      t.kind === 'Table' &&
      tableGroups.includes(t.group) &&
      tableVersions.includes(t.version),
  });
  if (!r) {
    throw errors.notAcceptable(`only the following media types are accepted: ${listed(supported, opts.watch ? ';stream=watch' : '')}`);
  }
  const out: OutputFormat = { format: r.format === 'yaml' ? 'yaml' : r.format === 'protobuf' ? 'protobuf' : 'json', mediaType: r.mediaType, pretty: pretty || r.pretty };
  if (r.convert) out.table = { group: r.convert.group, version: r.convert.version };
  return out;
}
