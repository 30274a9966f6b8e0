import { parseRequestInfo } from './requestInfo';

describe('parseRequestInfo', () => {
  const q = (s = ''): URLSearchParams => new URLSearchParams(s);
  test.each([
    ['GET', '/api/v1/namespaces', '', { verb: 'list', resource: 'namespaces', name: '', namespace: '' }],
    ['GET', '/api/v1/namespaces/demo', '', { verb: 'get', resource: 'namespaces', name: 'demo', namespace: 'demo' }],
    ['PUT', '/api/v1/namespaces/demo/finalize', '', { verb: 'update', resource: 'namespaces', name: 'demo', subresource: 'finalize' }],
    ['GET', '/api/v1/namespaces/demo/status', '', { verb: 'get', resource: 'namespaces', name: 'demo', subresource: 'status' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', '', { verb: 'list', resource: 'serviceaccounts', namespace: 'demo', name: '' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=true', { verb: 'watch', resource: 'serviceaccounts' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=1', { verb: 'watch' }],
    // Any value but "0"/"false" is true, as upstream's query-parameter conversion reads it.
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=maybe', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=false', { verb: 'list' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=FALSE', { verb: 'list' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts', 'watch=0', { verb: 'list' }],
    ['GET', '/api/v1/serviceaccounts', '', { verb: 'list', resource: 'serviceaccounts', namespace: '' }],
    ['POST', '/api/v1/namespaces/demo/serviceaccounts', '', { verb: 'create', resource: 'serviceaccounts', namespace: 'demo' }],
    ['DELETE', '/api/v1/namespaces/demo/serviceaccounts', '', { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/demo/serviceaccounts/bot', '', { verb: 'delete', name: 'bot' }],
    ['PATCH', '/apis/certificates.svc.io/v1/certificatesigningrequests/x/approval', '', { verb: 'patch', group: 'certificates.svc.io', subresource: 'approval' }],
    ['GET', '/apis/certificates.svc.io/v1/watch/certificatesigningrequests', '', { verb: 'watch', resource: 'certificatesigningrequests' }],
    ['GET', '/apis/certificates.svc.io/v1/watch/certificatesigningrequests/x', '', { verb: 'watch', name: 'x' }],
    ['GET', '/apis/certificates.svc.io/v1/certificatesigningrequests/a%25b', '', { verb: 'get', name: 'a%b' }],
    ['GET', '/api/v1/namespaces/demo/serviceaccounts/%2e%2e', '', { verb: 'get', name: '..' }],
  ])('%s %s?%s', (method, path, query, want) => {
    const info = parseRequestInfo(method, path, q(query));
    expect(info.isResourceRequest).toBe(true);
    expect(info).toMatchObject(want);
  });

  test.each([['/healthz'], ['/api'], ['/apis'], ['/apis/certificates.svc.io'], ['/api/v1'], ['/apis/certificates.svc.io/v1'], ['/version']])(
    '%s is not a resource request',
    (path) => {
      expect(parseRequestInfo('GET', path, q()).isResourceRequest).toBe(false);
    },
  );
});
