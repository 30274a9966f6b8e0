// Encode/decode of the Watch service's messages (etcd's rpc.proto and kv.proto field numbers):
// WatchRequest (create, cancel, progress) and WatchResponse with its Events.
import { WireType } from '../../protowire/reader';
import type { ProtoWriter } from '../../protowire/writer';
import type { ProtoEvent, WatchCreateRequest, WatchRequest, WatchResponse } from '../etcd3Proto';
import { emptyKeyValue, readKeyValue, readPrevKeyValue, readResponseHeader } from './kvMessages';
import type { EtcdReader } from './etcdReader';
import { writeBoolField, writeBytesField, writeInt64Field } from './protoFields';

function writeCreate(w: ProtoWriter, m: WatchCreateRequest): void {
  writeBytesField(w, 1, m.key);
  writeBytesField(w, 2, m.range_end);
  writeInt64Field(w, 3, m.start_revision);
  writeBoolField(w, 4, m.progress_notify);
  writeBoolField(w, 6, m.prev_kv);
  writeInt64Field(w, 7, m.watch_id);
}

export function writeWatchRequest(w: ProtoWriter, m: WatchRequest): void {
  // request_union is a oneof: the member is written even when its message is empty (progress).
  let mark: number;
  if (m.create_request) {
    mark = w.begin(1);
    writeCreate(w, m.create_request);
  } else if (m.cancel_request) {
    mark = w.begin(2);
    writeInt64Field(w, 1, m.cancel_request.watch_id);
  } else if (m.progress_request) {
    mark = w.begin(3);
  } else {
    return;
  }
  w.end(mark);
}

function readEvent(r: EtcdReader): ProtoEvent {
  const e: ProtoEvent = { type: 0, kv: emptyKeyValue(), prev_kv: null };
  while (r.pos < r.end) {
    const t = r.tag();
    switch (t) {
      case (1 << 3) | WireType.varint:
        e.type = r.int64();
        break;
      case (2 << 3) | WireType.bytes:
        e.kv = r.message(readKeyValue);
        break;
      case (3 << 3) | WireType.bytes:
        e.prev_kv = r.message(readPrevKeyValue);
        break;
      default:
        r.skip(t & 7);
    }
  }
  return e;
}

export function readWatchResponse(r: EtcdReader): WatchResponse {
  const res: WatchResponse = {
    header: { revision: 0 },
    watch_id: 0,
    created: false,
    canceled: false,
    compact_revision: 0,
    cancel_reason: '',
    fragment: false,
    events: [],
  };
  while (r.pos < r.end) {
    const t = r.tag();
    switch (t) {
      case (1 << 3) | WireType.bytes:
        res.header = r.message(readResponseHeader);
        break;
      case (2 << 3) | WireType.varint:
        res.watch_id = r.int64();
        break;
      case (3 << 3) | WireType.varint:
        res.created = r.bool();
        break;
      case (4 << 3) | WireType.varint:
        res.canceled = r.bool();
        break;
      case (5 << 3) | WireType.varint:
        res.compact_revision = r.int64();
        break;
      case (6 << 3) | WireType.bytes:
        res.cancel_reason = r.string();
        break;
      case (7 << 3) | WireType.varint:
        res.fragment = r.bool();
        break;
      case (11 << 3) | WireType.bytes:
        res.events.push(r.message(readEvent));
        break;
      default:
        r.skip(t & 7);
    }
  }
  return res;
}
