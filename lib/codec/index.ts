// Public surface of the codec: body decoding with field validation, normalization to
// upstream's JSON shape, JSON/YAML encoders and media type negotiation.
export * from './decode';
export * from './decodeTree';
export * from './normalize';
export * from './encode';
export * from './mediaType';
export * from './negotiate';
export * from './schemas';
export { RawJson } from './rawJson';
export { fromPlain, parseJSON, JSONSyntaxError, toPlain } from './jsonTree';
export type { JNode } from './jsonTree';
export { parseYAML, YAMLSyntaxError } from './yamlTree';
export { canonicalTime, formatRFC3339, parseGoRFC3339, TimeParseError } from './goTime';
export { decodeGoBase64, Base64Error } from './goBase64';
export type { GroupVersionKind } from './interpret';
