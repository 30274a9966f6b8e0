// Field writers that leave proto3 defaults out, as every protobuf encoder does (etcd's messages
// are proto3; the API's are proto2 and write through lib/codec's schema walk instead).
import { WireType } from '../../protowire/reader';
import type { ProtoWriter } from '../../protowire/writer';

export function writeInt64Field(w: ProtoWriter, field: number, v: number | undefined): void {
  if (!v) return;
  w.tag(field, WireType.varint);
  w.int64(v);
}

export function writeBoolField(w: ProtoWriter, field: number, v: boolean | undefined): void {
  if (!v) return;
  w.tag(field, WireType.varint);
  w.uint32(1);
}

export function writeBytesField(w: ProtoWriter, field: number, v: Uint8Array | undefined): void {
  if (!v || v.length === 0) return;
  w.bytes(field, v);
}
