import { constants } from 'node:http2';
import { GrpcStatus, statusFromClose, statusFromHttp, statusFromTrailers } from './grpcStatus';

describe('status from trailers', () => {
  test.each([
    [{ 'grpc-status': '0' }, null],
    [{ 'grpc-status': '11', 'grpc-message': 'etcdserver: mvcc: required revision has been compacted' }, { code: 11, details: 'etcdserver: mvcc: required revision has been compacted', unprocessed: false }],
    [{ 'grpc-status': '14', 'grpc-message': 'etcdserver: leader changed%20%E2%9C%93' }, { code: 14, details: 'etcdserver: leader changed ✓', unprocessed: false }],
    [{ 'grpc-status': '2', 'grpc-message': 'bad %zz escape' }, { code: 2, details: 'bad %zz escape', unprocessed: false }],
    [{ 'grpc-status': 'x' }, { code: GrpcStatus.UNKNOWN, details: '', unprocessed: false }],
  ])('%j', (headers, expected) => {
    const s = statusFromTrailers(headers);
    expect(s === null ? null : { code: s!.code, details: s!.details, unprocessed: s!.unprocessed }).toEqual(expected);
  });

  test('no grpc-status: undefined (not a status at all)', () => {
    expect(statusFromTrailers({ ':status': '200' })).toBeUndefined();
  });

  test('the message reads as grpc-js wrote it', () => {
    expect(statusFromTrailers({ 'grpc-status': '4', 'grpc-message': 'context deadline exceeded' })!.message).toBe('4 DEADLINE_EXCEEDED: context deadline exceeded');
  });
});

test.each([
  [400, GrpcStatus.INTERNAL],
  [401, GrpcStatus.UNAUTHENTICATED],
  [403, GrpcStatus.PERMISSION_DENIED],
  [404, GrpcStatus.UNIMPLEMENTED],
  [429, GrpcStatus.UNAVAILABLE],
  [502, GrpcStatus.UNAVAILABLE],
  [503, GrpcStatus.UNAVAILABLE],
  [504, GrpcStatus.UNAVAILABLE],
  [500, GrpcStatus.UNKNOWN],
])('HTTP %d without grpc-status → code %d', (http, code) => {
  expect(statusFromHttp(http).code).toBe(code);
});

describe('a stream closed without a status', () => {
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  test.each([
    ['refused by the server: unprocessed, safe to resend', constants.NGHTTP2_REFUSED_STREAM, false, undefined, GrpcStatus.UNAVAILABLE, true],
    ['refused while the connection goes away: still unprocessed', constants.NGHTTP2_REFUSED_STREAM, true, undefined, GrpcStatus.UNAVAILABLE, true],
    ['connection dropped', constants.NGHTTP2_CANCEL, true, reset, GrpcStatus.UNAVAILABLE, false],
    ['cancelled', constants.NGHTTP2_CANCEL, false, undefined, GrpcStatus.CANCELLED, false],
    ['ENHANCE_YOUR_CALM', constants.NGHTTP2_ENHANCE_YOUR_CALM, false, undefined, GrpcStatus.RESOURCE_EXHAUSTED, false],
    ['INADEQUATE_SECURITY', constants.NGHTTP2_INADEQUATE_SECURITY, false, undefined, GrpcStatus.PERMISSION_DENIED, false],
    ['INTERNAL_ERROR after ECONNRESET', constants.NGHTTP2_INTERNAL_ERROR, false, reset, GrpcStatus.UNAVAILABLE, false],
    ['INTERNAL_ERROR', constants.NGHTTP2_INTERNAL_ERROR, false, undefined, GrpcStatus.INTERNAL, false],
    ['NO_ERROR without a status', constants.NGHTTP2_NO_ERROR, false, undefined, GrpcStatus.INTERNAL, false],
    ['another code', constants.NGHTTP2_PROTOCOL_ERROR, false, undefined, GrpcStatus.INTERNAL, false],
  ])('%s', (_name, rst, dropped, err, code, unprocessed) => {
    const s = statusFromClose(rst, dropped, err);
    expect([s.code, s.unprocessed]).toEqual([code, unprocessed]);
  });
});
