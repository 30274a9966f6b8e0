// Accept-header negotiation for API responses (spec §4.4, wire-formats.md §2): JSON, YAML,
// Protobuf (under our name or the upstream alias stock clients send, answered under the name
// asked for) or, with CBORServingAndStorage, CBOR; a Table in JSON or YAML, or
// PartialObjectMetadata(List) in any of them, where the endpoint converts; 406 otherwise. The
// clause order, wildcards and parameters follow apimachinery (lib/codec/negotiate.ts).
import { groups, stockClientMetaGroup } from '../api/product';
import { cborMediaType } from '../codec/decode';
import { cborSequenceMediaType } from '../codec/cborWatch';
import {
  jsonMediaType,
  negotiate,
  protobufAliasMediaTypes,
  protobufMediaTypeInfo,
  yamlMediaType,
  type SupportedMediaType,
} from '../codec/negotiate';
import { errors } from '../machinery/errors';
import type { PartialKind } from './partialObjectMetadata';
import type { OutputFormat } from './respond';

/**
 * Table groups answered: ours, and the upstream spelling stock kubectl sends (docs/decisions.md,
 * "Naming profile for stock clients"); the Table is written under the group asked for.
 */
const tableGroups: readonly string[] = [groups.meta, stockClientMetaGroup];
const tableVersions: readonly string[] = ['v1', 'v1beta1'];

/** Server preference order (wildcards pick the first): JSON, YAML, Protobuf. */
const objectTypes: readonly SupportedMediaType[] = [jsonMediaType, yamlMediaType, protobufMediaTypeInfo, ...protobufAliasMediaTypes];
/** Watch streams exist for JSON, Protobuf and CBOR (YAML has no stream form). */
const streamTypes: readonly SupportedMediaType[] = [jsonMediaType, protobufMediaTypeInfo, ...protobufAliasMediaTypes];

/** CBOR comes last (the gate adds its serializer after the built-in ones). */
const cborMediaTypeInfo: SupportedMediaType = { format: 'cbor', mediaType: cborMediaType, streams: true };

/** A 406 list: CBOR's stream form is its own media type (upstream MediaTypesForSerializer). */
const listed = (types: readonly SupportedMediaType[], watch: boolean): string =>
  types
    .filter((t) => !protobufAliasMediaTypes.includes(t))
    .map((t) => (watch ? (t.format === 'cbor' ? cborSequenceMediaType : `${t.mediaType};stream=watch`) : t.mediaType))
    .join(', ');

export interface ChooseOptions {
  /**
   * The endpoint converts its answers (upstream AllowsMediaTypeTransform with a TableConvertor):
   * to Table in JSON or YAML, and to PartialObjectMetadata(List) in any media type.
   */
  tables?: boolean;
  /** A watch: only types with a stream form are offered. */
  watch?: boolean;
  /** Protobuf is offered (default); discovery documents have no Protobuf schema here. */
  protobuf?: boolean;
  /** CBOR is offered (the CBORServingAndStorage gate). Default false. */
  cbor?: boolean;
  /**
   * The objects themselves have a Protobuf form (default). False for custom resources: Protobuf
   * is still listed and serves PartialObjectMetadata, but a plain Protobuf clause is skipped.
   */
  protobufObjects?: boolean;
}

const partialKinds: readonly string[] = ['PartialObjectMetadata', 'PartialObjectMetadataList'];

// Clients send a handful of distinct Accept headers: each (header, options) pair is negotiated
// once. Bounded (cleared when full) so arbitrary headers cannot grow it.
const chosen = new Map<string, Readonly<OutputFormat>>();
const chosenCapacity = 256;

/** The output for a request. Conversions the endpoint does not offer skip their clause. */
export function chooseOutput(accept: string | undefined, pretty: boolean, opts: ChooseOptions = {}): OutputFormat {
  const key = `${opts.tables === true ? 't' : ''}${opts.watch === true ? 'w' : ''}${opts.protobuf === false ? 'n' : ''}${opts.cbor === true ? 'c' : ''}${opts.protobufObjects === false ? 'u' : ''}${pretty ? 'p' : ''}:${accept ?? ''}`;
  let out = chosen.get(key);
  if (!out) {
    // Throws 406 for an unacceptable header: not remembered.
    out = negotiateOutput(accept, pretty, opts);
    if (chosen.size >= chosenCapacity) chosen.clear();
    chosen.set(key, out);
  }
  // A copy: callers add to it (the endpoint's schemas).
  return { ...out };
}

function negotiateOutput(accept: string | undefined, pretty: boolean, opts: ChooseOptions): OutputFormat {
  const base = opts.watch ? streamTypes : objectTypes;
  const all = opts.cbor === true ? [...base, cborMediaTypeInfo] : base;
  const supported = opts.protobuf === false ? all.filter((t) => t.format !== 'protobuf') : all;
  const r = negotiate(accept?.trim() ? accept : undefined, {
    supported,
    allowsPlain: opts.protobufObjects === false ? (media) => media.format !== 'protobuf' : undefined,
    allowsConversion: (t, media) =>
      opts.tables === true &&
      tableGroups.includes(t.group) &&
      tableVersions.includes(t.version) &&
      ((t.kind === 'Table' && (media.format === 'json' || media.format === 'yaml')) || partialKinds.includes(t.kind)),
  });
  if (!r) {
    throw errors.notAcceptable(`only the following media types are accepted: ${listed(supported, opts.watch === true)}`);
  }
  const out: OutputFormat = { format: r.format, mediaType: r.mediaType, pretty: pretty || r.pretty };
  if (r.convert?.kind === 'Table') out.table = { group: r.convert.group, version: r.convert.version };
  else if (r.convert) out.partial = { kind: r.convert.kind as PartialKind, group: r.convert.group, version: r.convert.version };
  return out;
}
