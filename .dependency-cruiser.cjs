// Imports point one way (DESIGN.md §3). Each rule forbids one upward or sideways import.
const rule = (name, from, to) => ({ name, severity: 'error', from: { path: from }, to: { path: to } });
module.exports = {
  forbidden: [
    rule('lib-never-imports-cmd', '^lib/', '^cmd/'),
    rule('api-imports-nothing', '^lib/api/', '^lib/(?!api/)'),
    rule('protowire-imports-nothing', '^lib/protowire/', '^lib/(?!protowire/)'),
    rule('etcd-imports-nothing', '^lib/etcd/', '^lib/(?!etcd/|protowire/)'),
    rule('machinery-only-api', '^lib/machinery/', '^lib/(?!api/|machinery/)'),
    rule('codec-only-api-machinery', '^lib/codec/', '^lib/(?!api/|machinery/|protowire/|codec/)'),
    rule('cel-only-api-machinery', '^lib/cel/', '^lib/(?!api/|machinery/|cel/)'),
    rule('signing-only-api', '^lib/signing/', '^lib/(?!api/|signing/)'),
    rule('registry-not-http', '^lib/registry/', '^lib/(apiserver|auth|admission|client|controllers|signing)/'),
    rule('watchcache-below-registry', '^lib/watchcache/', '^lib/(?!api/|machinery/|etcd/|watchcache/)'),
    rule('auth-not-http', '^lib/auth/', '^lib/(apiserver|admission|client|controllers|etcd|watchcache)/'),
    rule('admission-not-http', '^lib/admission/', '^lib/(apiserver|registry|etcd|watchcache|client|controllers)/'),
    rule('apiserver-not-etcd', '^lib/apiserver/', '^lib/(etcd|watchcache|client|controllers)/'),
    rule('audit-only-api-machinery', '^lib/audit/', '^lib/(?!api/|machinery/|audit/)'),
    rule('client-not-server', '^lib/client/', '^lib/(?!api/|machinery/|codec/|client/)'),
    rule('controllers-through-client', '^lib/controllers/', '^lib/(apiserver|registry|etcd|watchcache|auth|admission)/'),
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
