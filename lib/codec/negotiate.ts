// Response media type negotiation (apimachinery's NegotiateMediaTypeOptions): clauses in
// goautoneg order, each tried against the server's types in preference order; a clause
// matches when type and subtype agree, or it is "type/*" or "*/*", and its parameters are
// acceptable to the endpoint. No match means 406.
import { protobufMediaType, protobufMediaTypeAliases } from '../api/product';
import { AcceptClause, parseAccept } from './mediaType';

export type MediaFormat = 'json' | 'yaml' | 'protobuf' | 'cbor';

export interface SupportedMediaType {
  format: MediaFormat;
  /** "application/json". */
  mediaType: string;
  /** Whether the format has a watch stream form (`stream=watch`). YAML has none. */
  streams: boolean;
}

export const jsonMediaType: SupportedMediaType = { format: 'json', mediaType: 'application/json', streams: true };
export const yamlMediaType: SupportedMediaType = { format: 'yaml', mediaType: 'application/yaml', streams: false };
export const protobufMediaTypeInfo: SupportedMediaType = { format: 'protobuf', mediaType: protobufMediaType, streams: true };
/**
 * The upstream spellings stock clients send (docs/decisions.md, "Naming profile for stock clients"):
 * matched after ours, answered under the name asked for, never listed in a 406.
 */
export const protobufAliasMediaTypes: readonly SupportedMediaType[] = protobufMediaTypeAliases.map((mediaType) => ({
  format: 'protobuf',
  mediaType,
  streams: true,
}));

export interface ConversionTarget {
  group: string;
  version: string;
  kind: string;
}

/** What an endpoint allows (upstream EndpointRestrictions). */
export interface NegotiateOptions {
  /** Server types in preference order; default JSON then YAML. */
  supported?: readonly SupportedMediaType[];
  /** Whether `as`/`g`/`v` may ask for this conversion (Table, PartialObjectMetadata…). Default: never. */
  allowsConversion?: (target: ConversionTarget, media: SupportedMediaType) => boolean;
  /** Whether a clause without a conversion may pick this media type. Default: always. */
  allowsPlain?: (media: SupportedMediaType) => boolean;
  /** Whether a `stream` parameter value is allowed. Default: only "watch". */
  allowsStream?: (stream: string) => boolean;
}

export interface Negotiated {
  format: MediaFormat;
  /** The server media type chosen (what Content-Type should say). */
  mediaType: string;
  /** The matching clause's parameters (other than q), for the HTTP layer to inspect. */
  params: Record<string, string>;
  /** `pretty=1` was asked for. */
  pretty: boolean;
  /** `stream` parameter, when present and non-empty. */
  stream?: string;
  /** Conversion target from as/g/v, when present. */
  convert?: ConversionTarget;
}

function accepts(clause: AcceptClause, media: SupportedMediaType, opts: NegotiateOptions): Negotiated | undefined {
  let convert: ConversionTarget | undefined;
  let stream: string | undefined;
  for (const [k, v] of Object.entries(clause.params)) {
    switch (k) {
      case 'as':
        convert = { ...(convert ?? { group: '', version: '', kind: '' }), kind: v };
        break;
      case 'g':
        convert = { ...(convert ?? { group: '', version: '', kind: '' }), group: v };
        break;
      case 'v':
        convert = { ...(convert ?? { group: '', version: '', kind: '' }), version: v };
        break;
      case 'stream':
        if (v && (!media.streams || !(opts.allowsStream ?? ((s) => s === 'watch'))(v))) return undefined;
        if (v) stream = v;
        break;
      case 'sv':
        if (v) return undefined; // no endpoint serves another server version
        break;
    }
  }
  if (convert && !(opts.allowsConversion?.(convert, media) ?? false)) return undefined;
  if (!convert && opts.allowsPlain && !opts.allowsPlain(media)) return undefined;
  const out: Negotiated = { format: media.format, mediaType: media.mediaType, params: { ...clause.params }, pretty: clause.params.pretty === '1' };
  if (stream) out.stream = stream;
  if (convert) out.convert = convert;
  return out;
}

/** Picks the response media type for an Accept header; null means 406 Not Acceptable. */
export function negotiate(acceptHeader: string | undefined, opts: NegotiateOptions = {}): Negotiated | null {
  const supported = opts.supported ?? [jsonMediaType, yamlMediaType];
  if (!acceptHeader) {
    const first = supported[0];
    return first ? { format: first.format, mediaType: first.mediaType, params: {}, pretty: false } : null;
  }
  for (const clause of parseAccept(acceptHeader)) {
    for (const media of supported) {
      const [type, subType] = media.mediaType.split('/');
      const matches =
        (clause.type === type && (clause.subType === subType || clause.subType === '*')) ||
        (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const r = accepts(clause, media, opts);
      if (r) return r;
    }
  }
  return null;
}
