// start()'s security step: the serving certificates (given, or a PKI generated once under
// --cert-dir), then over the stores authentication, authorization with the RBAC policy index, the
// validating admission chain, and RBAC's own writes (bootstrap roles, aggregation) admitted by it.
import type pino from 'pino';
import type { Authenticator } from '../../../lib/auth';
import type { Authorizer } from '../../../lib/auth/authorizer';
import { PolicyIndex } from '../../../lib/auth/rbac';
import type { ApiServerMetrics } from '../../../lib/apiserver/metrics';
import type { CreateOnlyEndpoint } from '../../../lib/registry/createOnly';
import type { AdmissionOptions, GenericStore } from '../../../lib/registry/store';
import { ensureCertDir, loadTLSFiles } from '../../../lib/signing';
import { startAdmission } from '../admission';
import type { LiveStores } from '../../../lib/apiserver/resourceRegistry';
import type { ApiServerOptions } from '../options';
import { startRbacPolicy, type RbacPolicy } from '../rbacPolicy';
import { buildSecurity } from '../security';

export type GeneratedPki = Awaited<ReturnType<typeof ensureCertDir>>;

export interface ServingCertificates {
  tls: Awaited<ReturnType<typeof loadTLSFiles>>;
  /** The PKI generated in --cert-dir (no --tls-cert-file): the kubeconfigs are written from it. */
  generated?: GeneratedPki;
}

/** TLS material: given files, or a PKI generated once under --cert-dir. */
export async function servingCertificates(opts: ApiServerOptions): Promise<ServingCertificates> {
  let tlsCertFile = opts.tlsCertFile;
  let tlsKeyFile = opts.tlsPrivateKeyFile;
  let clientCAFile = opts.clientCAFile;
  let generated: GeneratedPki | undefined;
  if (!tlsCertFile) {
    generated = await ensureCertDir(opts.certDir);
    tlsCertFile = generated.tlsCertFile;
    tlsKeyFile = generated.tlsKeyFile;
    clientCAFile ||= generated.caCertFile;
  }
  const tls = await loadTLSFiles({ clientCAFile: clientCAFile || undefined, tlsCertFile, tlsKeyFile });
  if (opts.writeKubeconfig && !generated) throw new Error('--write-kubeconfig needs the PKI generated in --cert-dir (no --tls-cert-file)');
  return { tls, generated };
}

export interface SecurityStep {
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** The identity and access endpoints (reviews, TokenRequest). */
  endpoints: CreateOnlyEndpoint[];
  /** What every write is admitted with: requests' and the server's own. */
  writes: AdmissionOptions;
  rbacPolicy: RbacPolicy;
  /** Stops the RBAC followers, the policy followers and the policy status controller. */
  stop(): void;
}

export async function startSecurity(opts: ApiServerOptions, resources: LiveStores, metrics: ApiServerMetrics, log: pino.Logger): Promise<SecurityStep> {
  // The built-in stores (RBAC, reviews) are all installed at start; admission follows the live set.
  const stores = resources.stores;
  // The authorizer reads the RBAC index, which is fed below, once admission exists for RBAC's own writes.
  const rbacIndex = new PolicyIndex();
  const security = await buildSecurity(opts, stores, rbacIndex, log);
  const admission = startAdmission(resources, {
    authorizer: security.authorizer,
    ruleResolver: security.escalationResolver,
    observePolicyCheck: (c) => {
      const labels = { policy: c.policy, policy_binding: c.binding, error_type: c.errorType, enforcement_action: c.enforcementAction };
      metrics.policyChecks.inc(labels);
      metrics.policyCheckDuration.observe(labels, c.seconds);
    },
    onPolicyStatusError: (name, err) => log.warn({ policy: name, err: err.message }, 'validatingadmissionpolicy-status: status update failed, retrying'),
  });
  const writes: AdmissionOptions = { admission: admission.admission };
  const rbacPolicy = startRbacPolicy(stores, rbacIndex, writes, log);
  return {
    authenticator: security.authenticator,
    authorizer: security.authorizer,
    endpoints: security.endpoints,
    writes,
    rbacPolicy,
    stop: () => {
      rbacPolicy.stop();
      admission.stop();
    },
  };
}
