// etcd's gRPC service definitions (the .proto files shipped in the etcd3 package; we use none of
// its client code) and TypeScript shapes for the messages we send and receive.
// Loaded with keepCase (snake_case fields), int64 as number (revisions stay < 2^53), enums as
// numbers, defaults filled in, so absent scalars read as 0/false/empty.
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { dirname, join } from 'node:path';

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

type Unary<Req, Res> = (
  req: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, res?: Res) => void,
) => grpc.ClientUnaryCall;

export interface KVClient extends grpc.Client {
  Range: Unary<RangeRequest, RangeResponse>;
  Txn: Unary<TxnRequest, TxnResponse>;
  Compact: Unary<CompactionRequest, CompactionResponse>;
}
export interface WatchClient extends grpc.Client {
  Watch(metadata: grpc.Metadata, options: grpc.CallOptions): grpc.ClientDuplexStream<WatchRequest, WatchResponse>;
}

type ClientConstructor<C> = new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => C;

export interface EtcdServices {
  KV: ClientConstructor<KVClient>;
  Watch: ClientConstructor<WatchClient>;
}

let services: EtcdServices | undefined;

/** Loads the service definitions once (parsing the protos takes ~50 ms). */
export function etcdServices(): EtcdServices {
  if (!services) {
    const protoDir = join(dirname(require.resolve('etcd3/package.json')), 'proto');
    const def = loadSync(join(protoDir, 'rpc.proto'), {
      keepCase: true,
      longs: Number,
      enums: Number,
      defaults: true,
      oneofs: true,
      includeDirs: [protoDir],
    });
    const pkg = grpc.loadPackageDefinition(def) as unknown as { etcdserverpb: EtcdServices };
    services = { KV: pkg.etcdserverpb.KV, Watch: pkg.etcdserverpb.Watch };
  }
  return services;
}
