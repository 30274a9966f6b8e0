// TypeScript shapes of the etcd messages we send and receive (etcd's rpc.proto and kv.proto;
// encoded and decoded by hand in wire/). Field names as in the .proto files (snake_case), int64
// as number (revisions stay < 2^53), enums as numbers; decoded messages have every scalar filled
// in (absent ones read as 0/false/empty) and a header.

export interface ResponseHeader {
  revision: number;
}

export interface ProtoKeyValue {
  key: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
  value: Buffer;
}

export interface RangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  limit?: number;
  revision?: number;
  keys_only?: boolean;
  count_only?: boolean;
}
export interface RangeResponse {
  header: ResponseHeader;
  kvs: ProtoKeyValue[];
  more: boolean;
  count: number;
}

export const CompareResult = { EQUAL: 0 } as const;
export const CompareTarget = { VERSION: 0, CREATE: 1, MOD: 2 } as const;

export interface Compare {
  result: number;
  target: number;
  key: Uint8Array;
  version?: number;
  create_revision?: number;
  mod_revision?: number;
}

export interface RequestOp {
  request_range?: RangeRequest;
  request_put?: { key: Uint8Array; value: Uint8Array };
  request_delete_range?: { key: Uint8Array };
}
export interface ResponseOp {
  response_range?: RangeResponse | null;
}
export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}
export interface TxnResponse {
  header: ResponseHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface CompactionRequest {
  revision: number;
  physical: boolean;
}
export interface CompactionResponse {
  header: ResponseHeader;
}

export interface WatchCreateRequest {
  key: Uint8Array;
  range_end: Uint8Array;
  start_revision: number;
  progress_notify: boolean;
  prev_kv: boolean;
  watch_id: number;
}
export interface WatchRequest {
  create_request?: WatchCreateRequest;
  cancel_request?: { watch_id: number };
  progress_request?: Record<string, never>;
}

export const EventType = { PUT: 0, DELETE: 1 } as const;

export interface ProtoEvent {
  type: number;
  kv: ProtoKeyValue;
  prev_kv: ProtoKeyValue | null;
}
export interface WatchResponse {
  header: ResponseHeader | null;
  watch_id: number;
  created: boolean;
  canceled: boolean;
  compact_revision: number;
  cancel_reason: string;
  fragment: boolean;
  events: ProtoEvent[];
}
