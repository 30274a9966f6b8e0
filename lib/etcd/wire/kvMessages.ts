// Encode/decode of the KV service's messages we use (etcd's rpc.proto and kv.proto field
// numbers): RangeRequest/Response, TxnRequest/Response with Compare and RequestOp/ResponseOp,
// CompactionRequest/Response, KeyValue and ResponseHeader. Fields we never send are not
// encodable; fields we never read are skipped on decode.
import { WireType } from '../../protowire/reader';
import type { ProtoWriter } from '../../protowire/writer';
import type {
  CompactionRequest,
  CompactionResponse,
  Compare,
  ProtoKeyValue,
  RangeRequest,
  RangeResponse,
  RequestOp,
  ResponseHeader,
  ResponseOp,
  TxnRequest,
  TxnResponse,
} from '../etcd3Proto';
import type { EtcdReader } from './etcdReader';
import { writeBoolField, writeBytesField, writeInt64Field } from './protoFields';

const EMPTY = Buffer.alloc(0);

// ---- requests

export function writeRangeRequest(w: ProtoWriter, m: RangeRequest): void {
  writeBytesField(w, 1, m.key);
  writeBytesField(w, 2, m.range_end);
  writeInt64Field(w, 3, m.limit);
  writeInt64Field(w, 4, m.revision);
  writeBoolField(w, 8, m.keys_only);
  writeBoolField(w, 9, m.count_only);
}

function writeCompare(w: ProtoWriter, m: Compare): void {
  writeInt64Field(w, 1, m.result);
  writeInt64Field(w, 2, m.target);
  writeBytesField(w, 3, m.key);
  // target_union is a oneof: a member that is set is sent even when 0 (create_revision: 0 = "absent").
  if (m.version !== undefined) {
    w.tag(4, WireType.varint);
    w.int64(m.version);
  } else if (m.create_revision !== undefined) {
    w.tag(5, WireType.varint);
    w.int64(m.create_revision);
  } else if (m.mod_revision !== undefined) {
    w.tag(6, WireType.varint);
    w.int64(m.mod_revision);
  }
}

function writeRequestOp(w: ProtoWriter, m: RequestOp): void {
  // A oneof: exactly one member, written even when its message is empty.
  let mark: number;
  if (m.request_range) {
    mark = w.begin(1);
    writeRangeRequest(w, m.request_range);
  } else if (m.request_put) {
    mark = w.begin(2);
    writeBytesField(w, 1, m.request_put.key);
    writeBytesField(w, 2, m.request_put.value);
  } else if (m.request_delete_range) {
    mark = w.begin(3);
    writeBytesField(w, 1, m.request_delete_range.key);
  } else {
    return;
  }
  w.end(mark);
}

function writeRepeated<T>(w: ProtoWriter, field: number, items: T[], write: (w: ProtoWriter, m: T) => void): void {
  for (const item of items) {
    const mark = w.begin(field);
    write(w, item);
    w.end(mark);
  }
}

export function writeTxnRequest(w: ProtoWriter, m: TxnRequest): void {
  writeRepeated(w, 1, m.compare, writeCompare);
  writeRepeated(w, 2, m.success, writeRequestOp);
  writeRepeated(w, 3, m.failure, writeRequestOp);
}

export function writeCompactionRequest(w: ProtoWriter, m: CompactionRequest): void {
  writeInt64Field(w, 1, m.revision);
  writeBoolField(w, 2, m.physical);
}

// ---- responses

export function readResponseHeader(r: EtcdReader): ResponseHeader {
  let revision = 0;
  while (r.pos < r.end) {
    const t = r.tag();
    if (t === ((3 << 3) | WireType.varint)) revision = r.int64();
    else r.skip(t & 7);
  }
  return { revision };
}

/** A KeyValue whose value is stored on (packed with the message's other values). */
export function readKeyValue(r: EtcdReader): ProtoKeyValue {
  return readKeyValueWith(r, true);
}

/** A previous KeyValue (watch prev_kv): its value is copied alone, not tied to the stored ones. */
export function readPrevKeyValue(r: EtcdReader): ProtoKeyValue {
  return readKeyValueWith(r, false);
}

function readKeyValueWith(r: EtcdReader, packed: boolean): ProtoKeyValue {
  const kv = emptyKeyValue();
  while (r.pos < r.end) {
    const t = r.tag();
    switch (t) {
      case (1 << 3) | WireType.bytes:
        kv.key = r.bytesPooled(); // every caller turns it into a string at once
        break;
      case (2 << 3) | WireType.varint:
        kv.create_revision = r.int64();
        break;
      case (3 << 3) | WireType.varint:
        kv.mod_revision = r.int64();
        break;
      case (4 << 3) | WireType.varint:
        kv.version = r.int64();
        break;
      case (5 << 3) | WireType.bytes:
        if (packed) r.valuePacked(kv);
        else kv.value = r.bytesCopy();
        break;
      default:
        r.skip(t & 7); // lease
    }
  }
  return kv;
}

export function emptyKeyValue(): ProtoKeyValue {
  return { key: EMPTY, create_revision: 0, mod_revision: 0, version: 0, value: EMPTY };
}

export function readRangeResponse(r: EtcdReader): RangeResponse {
  const res: RangeResponse = { header: { revision: 0 }, kvs: [], more: false, count: 0 };
  while (r.pos < r.end) {
    const t = r.tag();
    switch (t) {
      case (1 << 3) | WireType.bytes:
        res.header = r.message(readResponseHeader);
        break;
      case (2 << 3) | WireType.bytes:
        res.kvs.push(r.message(readKeyValue));
        break;
      case (3 << 3) | WireType.varint:
        res.more = r.bool();
        break;
      case (4 << 3) | WireType.varint:
        res.count = r.int64();
        break;
      default:
        r.skip(t & 7);
    }
  }
  return res;
}

function readResponseOp(r: EtcdReader): ResponseOp {
  const op: ResponseOp = {};
  while (r.pos < r.end) {
    const t = r.tag();
    // Only response_range is read by callers; put/delete responses carry nothing we use.
    if (t === ((1 << 3) | WireType.bytes)) op.response_range = r.message(readRangeResponse);
    else r.skip(t & 7);
  }
  return op;
}

export function readTxnResponse(r: EtcdReader): TxnResponse {
  const res: TxnResponse = { header: { revision: 0 }, succeeded: false, responses: [] };
  while (r.pos < r.end) {
    const t = r.tag();
    switch (t) {
      case (1 << 3) | WireType.bytes:
        res.header = r.message(readResponseHeader);
        break;
      case (2 << 3) | WireType.varint:
        res.succeeded = r.bool();
        break;
      case (3 << 3) | WireType.bytes:
        res.responses.push(r.message(readResponseOp));
        break;
      default:
        r.skip(t & 7);
    }
  }
  return res;
}

export function readCompactionResponse(r: EtcdReader): CompactionResponse {
  const res: CompactionResponse = { header: { revision: 0 } };
  while (r.pos < r.end) {
    const t = r.tag();
    if (t === ((1 << 3) | WireType.bytes)) res.header = r.message(readResponseHeader);
    else r.skip(t & 7);
  }
  return res;
}
