// deploy/prometheus/prometheus.yml: every apiserver replica (HTTPS, the system:monitoring client
// certificate from the PKI volume, server names checked against the cluster CA), both controller
// managers, and every etcd member's metrics listener.
import { dump } from 'js-yaml';
import { pkiFiles, type Topology } from '../topology';

export function renderPrometheus(t: Topology): string {
  const f = pkiFiles(t);
  const doc = {
    global: { scrape_interval: t.prometheus.scrapeInterval, evaluation_interval: t.prometheus.scrapeInterval },
    scrape_configs: [
      {
        job_name: 'apiserver',
        scheme: 'https',
        tls_config: { ca_file: f.caCert, cert_file: f.monitoringCert, key_file: f.monitoringKey },
        static_configs: [{ targets: t.apiserver.members.map((m) => `${m}:${t.apiserver.securePort}`) }],
      },
      {
        // Their serving certificate is self-signed in memory at start-up (no --tls-cert-file), and
        // /metrics there needs no credentials (cmd/controller-manager/servingEndpoints.ts).
        job_name: 'controller-manager',
        scheme: 'https',
        tls_config: { insecure_skip_verify: true },
        static_configs: [{ targets: t.controllerManager.members.map((m) => `${m}:${t.controllerManager.securePort}`) }],
      },
      {
        job_name: 'etcd',
        scheme: 'http',
        static_configs: [{ targets: t.etcd.members.map((m) => `${m}:${t.etcd.metricsPort}`) }],
      },
    ],
  };
  const header = '# Generated from deploy/topology.json by `make deploy-files` (deploy/generate.ts). Do not edit.\n';
  return header + dump(doc, { noRefs: true, lineWidth: -1 });
}
