// The etcd gRPC methods we call: their HTTP/2 paths and message codecs.
import type { RequestOp } from '../etcd3Proto';
import { readCompactionResponse, readRangeResponse, readTxnResponse, writeCompactionRequest, writeRangeRequest, writeTxnRequest } from './kvMessages';
import { readWatchResponse, writeWatchRequest } from './watchMessages';

export const kvMethods = {
  Range: { path: '/etcdserverpb.KV/Range', write: writeRangeRequest, read: readRangeResponse },
  Txn: { path: '/etcdserverpb.KV/Txn', write: writeTxnRequest, read: readTxnResponse },
  Compact: { path: '/etcdserverpb.KV/Compact', write: writeCompactionRequest, read: readCompactionResponse },
} as const;

export type UnaryMethod = keyof typeof kvMethods;
export type RequestOf<M extends UnaryMethod> = Parameters<(typeof kvMethods)[M]['write']>[1];
export type ResponseOf<M extends UnaryMethod> = ReturnType<(typeof kvMethods)[M]['read']>;

export const watchMethod = { path: '/etcdserverpb.Watch/Watch', write: writeWatchRequest, read: readWatchResponse } as const;

/** A size hint for the request buffer: a put's value is most of a Txn. */
export function requestSizeHint(method: UnaryMethod, req: RequestOf<UnaryMethod>): number {
  if (method !== 'Txn') return 128;
  let n = 128;
  const ops = (req as { success: RequestOp[] }).success;
  for (const op of ops) n += (op.request_put?.value.length ?? 0) + (op.request_put?.key.length ?? 0);
  return n;
}
