// The etcd message codec against bytes protobufjs produced once from etcd's own rpc.proto/kv.proto
// (node_modules/etcd3/proto; the generator is not kept). Requests must encode to exactly these
// bytes (proto3 canonical: defaults left out, a oneof member that is set written even when 0);
// responses must decode to the same objects grpc-js/proto-loader gave (defaults filled in).
import { readCompactionResponse, readRangeResponse, readTxnResponse, writeCompactionRequest, writeRangeRequest, writeTxnRequest } from './kvMessages';
import { ProtobufError } from '../../protowire/reader';
import { ProtoWriter } from '../../protowire/writer';
import type { ProtoKeyValue, RangeRequest, TxnRequest, WatchRequest } from '../etcd3Proto';
import { decodeMessage, EtcdReader } from './etcdReader';
import { readWatchResponse, writeWatchRequest } from './watchMessages';

const b = (s: string): Buffer => Buffer.from(s);
const hex = (buf: Buffer): string => buf.toString('hex');
const encode = <T>(write: (w: ProtoWriter, m: T) => void, m: T, hint = 16): string => {
  const w = new ProtoWriter(hint);
  write(w, m);
  return hex(w.finish());
};
const reader = (h: string): EtcdReader => new EtcdReader(Buffer.from(h, 'hex'));
const kv = (key: string, create: number, mod: number, version: number, value = ''): ProtoKeyValue => ({
  key: b(key),
  create_revision: create,
  mod_revision: mod,
  version,
  value: b(value),
});

describe('requests encode to the bytes protobufjs writes for etcd', () => {
  const put = (value: Buffer): TxnRequest['success'][number] => ({ request_put: { key: b('/k'), value } });
  test.each<[string, (w: ProtoWriter, m: never) => void, unknown, string]>([
    ['RangeRequest with range_end, limit and a revision above 2^32', writeRangeRequest, { key: b('/registry/a'), range_end: b('/registry/b'), limit: 500, revision: 123456789012 } satisfies RangeRequest, '0a0b2f72656769737472792f61120b2f72656769737472792f6218f4032094b4e4f4cb03'],
    ['RangeRequest keys_only, revision 0 left out', writeRangeRequest, { key: Buffer.from([0]), keys_only: true, limit: 1, revision: 0 } satisfies RangeRequest, '0a010018014001'],
    ['Txn create: compare create_revision = 0 (a oneof member, sent though 0)', writeTxnRequest, { compare: [{ result: 0, target: 1, key: b('/k'), create_revision: 0 }], success: [put(b('v'))], failure: [] } satisfies TxnRequest, '0a0810011a022f6b2800120912070a022f6b120176'],
    [
      'Txn update: mod_revision compare, a 200-byte put (two-byte lengths), range on failure',
      writeTxnRequest,
      { compare: [{ result: 0, target: 2, key: b('/k'), mod_revision: 300 }], success: [put(Buffer.alloc(200, 0x61))], failure: [{ request_range: { key: b('/k') } }] } satisfies TxnRequest,
      '0a0910021a022f6b30ac0212d20112cf010a022f6b12c801' + '61'.repeat(200) + '1a060a040a022f6b',
    ],
    ['Txn delete: version compare, delete_range, range on failure', writeTxnRequest, { compare: [{ result: 0, target: 0, key: b('/k'), version: 7 }], success: [{ request_delete_range: { key: b('/k') } }], failure: [{ request_range: { key: b('/k') } }] } satisfies TxnRequest, '0a061a022f6b200712061a040a022f6b1a060a040a022f6b'],
    ['CompactionRequest', writeCompactionRequest, { revision: 99, physical: true }, '08631001'],
    [
      'WatchRequest create with every field we set',
      writeWatchRequest,
      { create_request: { key: b('/r/'), range_end: b('/r0'), start_revision: 5000000000, progress_notify: true, prev_kv: true, watch_id: 3 } } satisfies WatchRequest,
      '0a160a032f722f12032f72301880e497d012200130013803',
    ],
    ['WatchRequest cancel', writeWatchRequest, { cancel_request: { watch_id: 3 } } satisfies WatchRequest, '12020803'],
    ['WatchRequest progress (an empty message, still sent)', writeWatchRequest, { progress_request: {} } satisfies WatchRequest, '1a00'],
  ])('%s', (_name, write, msg, expected) => {
    expect(encode(write, msg as never)).toBe(expected);
    // Growing from a 1-byte buffer gives the same bytes (nested lengths shifted in place).
    expect(encode(write, msg as never, 1)).toBe(expected);
  });
});

describe('responses decode to what grpc-js/proto-loader gave (defaults filled in)', () => {
  test.each<[string, (r: EtcdReader) => unknown, string, unknown]>([
    [
      'RangeResponse: header (uint64 ids skipped), two kvs (lease skipped, absent value empty), more, count',
      readRangeResponse,
      '0a1a08b298eaf1948386fccd011080d0918bd2b881cf8e01182a200212130a022f611002182820032a0568656c6c6f3007120a0a022f621029182920011801200c',
      { header: { revision: 42 }, kvs: [kv('/a', 2, 40, 3, 'hello'), kv('/b', 41, 41, 1)], more: true, count: 12 },
    ],
    ['RangeResponse: empty message has a header and defaults', readRangeResponse, '', { header: { revision: 0 }, kvs: [], more: false, count: 0 }],
    [
      'TxnResponse failed, with the failure branch range',
      readTxnResponse,
      '0a02184d10001a170a150a02184d120d0a022f6b1005184620092a01782001',
      { header: { revision: 77 }, succeeded: false, responses: [{ response_range: { header: { revision: 77 }, kvs: [kv('/k', 5, 70, 9, 'x')], more: false, count: 1 } }] },
    ],
    ['TxnResponse succeeded with a put response (nothing read from it)', readTxnResponse, '0a02184e10011a0612040a02184e', { header: { revision: 78 }, succeeded: true, responses: [{}] }],
    ['CompactionResponse', readCompactionResponse, '0a021864', { header: { revision: 100 } }],
    [
      'WatchResponse with a put (prev_kv) and a delete (no prev_kv)',
      readWatchResponse,
      '0a02185a10035a28080012110a042f722f611050185a20022a036e65771a110a042f722f611050185520012a036f6c645a0c080112080a042f722f62185a',
      {
        header: { revision: 90 },
        watch_id: 3,
        created: false,
        canceled: false,
        compact_revision: 0,
        cancel_reason: '',
        fragment: false,
        events: [
          { type: 0, kv: kv('/r/a', 80, 90, 2, 'new'), prev_kv: kv('/r/a', 80, 85, 1, 'old') },
          { type: 1, kv: kv('/r/b', 0, 90, 0), prev_kv: null },
        ],
      },
    ],
    ['WatchResponse created', readWatchResponse, '0a02185b10041801', expect.objectContaining({ header: { revision: 91 }, watch_id: 4, created: true, events: [] })],
    ['WatchResponse progress broadcast: watch_id -1 (a 10-byte varint)', readWatchResponse, '0a02185c10ffffffffffffffffff01', expect.objectContaining({ header: { revision: 92 }, watch_id: -1, created: false })],
    [
      'WatchResponse canceled for compaction, with reason and fragment',
      readWatchResponse,
      '0a02185d10052001283c322a6d7663633a207265717569726564207265766973696f6e20686173206265656e20636f6d7061637465643801',
      {
        header: { revision: 93 },
        watch_id: 5,
        created: false,
        canceled: true,
        compact_revision: 60,
        cancel_reason: 'mvcc: required revision has been compacted',
        fragment: true,
        events: [],
      },
    ],
  ])('%s', (_name, read, bytes, expected) => {
    expect(decodeMessage(read as (r: EtcdReader) => unknown, Buffer.from(bytes, 'hex'))).toEqual(expected);
  });

  test('keys and values are copies, not views of the received buffer', () => {
    const input = Buffer.from('0a1a08b298eaf1948386fccd011080d0918bd2b881cf8e01182a200212130a022f611002182820032a0568656c6c6f3007', 'hex');
    const res = decodeMessage(readRangeResponse, input);
    const v = res.kvs[0].value;
    expect(v.toString()).toBe('hello');
    expect(v.buffer).not.toBe(input.buffer);
    expect(v.buffer.byteLength).toBe(5); // its own memory: it keeps nothing else alive
    input.fill(0);
    expect(v.toString()).toBe('hello');
    expect(res.kvs[0].key.toString()).toBe('/a'); // keys are copied too (from Node's pool: they become strings at once)
  });

  test('a message\'s stored values share one buffer of exactly their bytes; previous values are copied alone', () => {
    // Two kvs ("new" under /r/a, "x" under /r/b) in a RangeResponse: one pack of 4 bytes.
    const range = Buffer.from('120b0a042f722f612a036e657712090a042f722f622a0178', 'hex');
    const res = decodeMessage(readRangeResponse, range);
    expect(res.kvs.map((kv) => kv.value.toString())).toEqual(['new', 'x']);
    expect(res.kvs[0].value.buffer).toBe(res.kvs[1].value.buffer);
    expect(res.kvs[0].value.buffer.byteLength).toBe(4);
    range.fill(0);
    expect(res.kvs.map((kv) => kv.value.toString())).toEqual(['new', 'x']);
    // A watch event's prev_kv does not share the stored value's buffer (it would keep the old
    // value alive for as long as the new one is cached).
    const watch = Buffer.from('0a02185a10025a1e120d0a042f722f61185a2a036e65771a0d0a042f722f6118552a036f6c64', 'hex');
    const w = decodeMessage(readWatchResponse, watch);
    expect(w.events[0].kv.value.toString()).toBe('new');
    expect(w.events[0].prev_kv?.value.toString()).toBe('old');
    expect(w.events[0].prev_kv?.value.buffer).not.toBe(w.events[0].kv.value.buffer);
    expect(w.events[0].kv.value.buffer.byteLength).toBe(3);
  });

  test('without packValues a packed value is not handed out', () => {
    const input = Buffer.from('0a1a08b298eaf1948386fccd011080d0918bd2b881cf8e01182a200212130a022f611002182820032a0568656c6c6f3007', 'hex');
    const r = new EtcdReader(input);
    const res = readRangeResponse(r);
    expect(res.kvs[0].value.length).toBe(0);
    r.packValues();
    expect(res.kvs[0].value.toString()).toBe('hello');
  });
});

describe('varints', () => {
  test.each([0, 1, 127, 128, 300, 2 ** 28 - 1, 2 ** 28, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35 + 17, 123456789012, 2 ** 53 - 1, -1, -2, -(2 ** 32), -(2 ** 40) - 5, -(2 ** 53) + 1])('int64 %d round-trips', (v) => {
    const w = new ProtoWriter(1);
    w.int64(v);
    const buf = w.finish();
    expect(buf.length).toBe(v < 0 ? 10 : Math.max(1, Math.ceil(Math.log2(v + 1) / 7)));
    const r = new EtcdReader(buf);
    expect(r.int64()).toBe(v);
    expect(r.done).toBe(true);
  });

  test.each([
    ['a varint cut short', '80'],
    ['a length past the end', '0a05616263'],
    ['a nested message past its parent', '12030a0a61'],
    ['an unsupported wire type (group)', '0b'],
  ])('%s is a ProtobufError, never a crash or a wrong value', (_name, h) => {
    expect(() => readRangeResponse(reader(h))).toThrow(ProtobufError);
  });

  test('unknown fields of every wire type are skipped', () => {
    // field 15 varint, field 14 fixed64, field 13 bytes, field 12 fixed32, then count = 5.
    const h = '7896017101020304050607086a026869650102030420' + '05';
    expect(readRangeResponse(reader(h)).count).toBe(5);
  });
});
