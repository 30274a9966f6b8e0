// prometheus.yml: every apiserver replica (HTTPS, the system:monitoring client certificate from
// the PKI, server names checked against the cluster CA), both controller managers, and every etcd
// member's metrics listener; plus the recording and alerting rules (deploy/prometheus/rules.yml).
import { dump } from 'js-yaml';
import { apiserverMembers, type Topology } from '../topology';
import type { Placement } from './commands';

/** Where compose mounts deploy/prometheus/rules.yml. */
export const composeRulesFile = '/etc/prometheus/rules.yml';

export function renderPrometheus(t: Topology, p: Placement, rulesFile: string, scrapeInterval: string = t.prometheus.scrapeInterval): string {
  const f = p.pki;
  const doc = {
    global: { scrape_interval: scrapeInterval, evaluation_interval: scrapeInterval },
    rule_files: [rulesFile],
    scrape_configs: [
      {
        job_name: 'apiserver',
        scheme: 'https',
        ...(p.dockerDns
          ? {
              // Every address Docker's DNS answers for the service (each replica, however many
              // `--scale` made), checked against the name the shared serving certificate carries.
              tls_config: { ca_file: f.caCert, cert_file: f.monitoringCert, key_file: f.monitoringKey, server_name: t.apiserver.service },
              dns_sd_configs: [{ names: [t.apiserver.service], type: 'A', port: t.apiserver.securePort, refresh_interval: '5s' }],
            }
          : {
              tls_config: { ca_file: f.caCert, cert_file: f.monitoringCert, key_file: f.monitoringKey },
              static_configs: [{ targets: apiserverMembers(t).map((m) => `${p.host(m)}:${t.apiserver.securePort}`) }],
            }),
      },
      {
        // Their serving certificate is self-signed in memory at start-up (no --tls-cert-file), and
        // /metrics there needs no credentials (cmd/controller-manager/servingEndpoints.ts).
        job_name: 'controller-manager',
        scheme: 'https',
        tls_config: { insecure_skip_verify: true },
        static_configs: [{ targets: t.controllerManager.members.map((m) => `${p.host(m)}:${t.controllerManager.securePort}`) }],
      },
      {
        job_name: 'etcd',
        scheme: 'http',
        static_configs: [{ targets: t.etcd.members.map((m) => `${p.host(m)}:${t.etcd.metricsPort}`) }],
      },
    ],
  };
  const header = '# Generated from deploy/topology.json by `make deploy-files` (deploy/generate.ts). Do not edit.\n';
  return header + dump(doc, { noRefs: true, lineWidth: -1 });
}
