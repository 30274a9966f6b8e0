// Authentication, authorization and the identity/access endpoints, built from the flags:
// x509 client certificates, ServiceAccount tokens (keys generated in --cert-dir when absent),
// a static token file, and the authorizers of --authorization-mode behind system:masters.
import type { Logger } from 'pino';
import type { ResourceInfo, ServiceAccount } from '../../lib/api';
import { localsubjectaccessreviews, selfsubjectaccessreviews, selfsubjectreviews, selfsubjectreviewsV1beta1, selfsubjectrulesreviews, subjectaccessreviews, tokenreviews } from '../../lib/api';
import { audienceAgnosticTokenAuthenticator, bearerTokenAuthenticator, unionTokenAuthenticator, type TokenAuthenticator } from '../../lib/auth/bearer';
import { unionAuthenticator, x509Authenticator, type Authenticator, groupNames } from '../../lib/auth';
import {
  alwaysAllowAuthorizer,
  alwaysDenyAuthorizer,
  privilegedGroupsAuthorizer,
  unionAuthorizer,
  unionRuleResolver,
  type Authorizer,
  type RuleResolver,
} from '../../lib/auth/authorizer';
import { rbacAuthorizer, type PolicyIndex, type RbacAuthorizer } from '../../lib/auth/rbac';
import { selfSubjectReviewEndpoint, selfSubjectRulesReviewEndpoint, subjectAccessReviewEndpoint, tokenReviewEndpoint } from '../../lib/auth/reviews';
import {
  ensureServiceAccountKey,
  issueServiceAccountToken,
  loadServiceAccountKeyFiles,
  loadServiceAccountSigningKey,
  serviceAccountTokenAuthenticator,
} from '../../lib/auth/serviceaccount';
import { loadTokenFile, tokenFileAuthenticator } from '../../lib/auth/tokenfile';
import { tokenRequestEndpoint } from '../../lib/auth/tokenRequest';
import { isApiError } from '../../lib/machinery/errors';
import type { CreateOnlyEndpoint } from '../../lib/registry/createOnly';
import type { GenericStore } from '../../lib/registry/store';
import { systemContext } from '../../lib/registry/stores';
import type { ApiServerOptions } from './options';

/**
 * The virtual resources of the create-only endpoints built below, known before they are built so
 * that --runtime-config can be checked at flag time (start() verifies the two agree).
 */
export const virtualResources: readonly ResourceInfo[] = [tokenreviews, selfsubjectreviews, selfsubjectreviewsV1beta1, subjectaccessreviews, localsubjectaccessreviews, selfsubjectaccessreviews, selfsubjectrulesreviews];

export interface Security {
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** Present when RBAC is one of the modes: escalation checks resolve rules through it. */
  escalationResolver?: RbacAuthorizer;
  endpoints: CreateOnlyEndpoint[];
}

function serviceAccountStore(stores: readonly GenericStore[]): GenericStore {
  const s = stores.find((x) => x.resource.group === '' && x.resource.resource === 'serviceaccounts');
  if (!s) throw new Error('serviceaccounts are not served');
  return s;
}

/** The ServiceAccount for token checks: from the watch cache, confirmed by a quorum read on a miss. */
function serviceAccountLookup(store: GenericStore): (namespace: string, name: string) => Promise<{ uid: string; deletionTimestamp?: string } | null> {
  return async (namespace, name) => {
    const ctx = systemContext(namespace);
    const found = ((await store.get(ctx, name, { any: true }).catch(() => null)) ?? (await store.get(ctx, name).catch((e: unknown) => {
      if (isApiError(e) && e.code === 404) return null;
      throw e;
    }))) as ServiceAccount | null;
    return found ? { uid: found.metadata?.uid ?? '', deletionTimestamp: found.metadata?.deletionTimestamp } : null;
  };
}

export async function buildSecurity(opts: ApiServerOptions, stores: readonly GenericStore[], policy: PolicyIndex, log: Logger): Promise<Security> {
  // ServiceAccount token keys: given, or generated once in --cert-dir.
  let signingKeyFile = opts.serviceAccountSigningKeyFile;
  let keyFiles = opts.serviceAccountKeyFiles;
  if (!signingKeyFile) {
    const ensured = await ensureServiceAccountKey(opts.certDir);
    signingKeyFile = ensured.signingKeyFile;
    if (keyFiles.length === 0) keyFiles = [ensured.publicKeyFile];
    if (ensured.generated) log.info({ file: ensured.signingKeyFile }, 'generated the service account signing key');
  }
  const signingKey = await loadServiceAccountSigningKey(signingKeyFile);
  const publicKeys = keyFiles.length ? await loadServiceAccountKeyFiles(keyFiles) : [];
  const verifyKeys = keyFiles.length ? publicKeys : [signingKey.key];

  const saStore = serviceAccountStore(stores);
  const tokenAuthenticators: TokenAuthenticator[] = [
    serviceAccountTokenAuthenticator({
      publicKeys: verifyKeys,
      issuers: opts.serviceAccountIssuers,
      apiAudiences: opts.apiAudiences,
      getServiceAccount: serviceAccountLookup(saStore),
    }),
  ];
  if (opts.tokenAuthFile) {
    const parsed = await loadTokenFile(opts.tokenAuthFile);
    for (const w of parsed.warnings) log.warn({ file: opts.tokenAuthFile }, w);
    // Static tokens carry no audience: they answer only for the API's own (upstream WrapAudienceAgnosticToken).
    tokenAuthenticators.unshift(audienceAgnosticTokenAuthenticator(opts.apiAudiences, tokenFileAuthenticator(parsed.entries)));
  }
  const tokens = unionTokenAuthenticator(tokenAuthenticators);
  const authenticator = unionAuthenticator([x509Authenticator(), bearerTokenAuthenticator(tokens, { apiAudiences: opts.apiAudiences })], {
    anonymous: opts.anonymousAuth,
  });

  // system:masters first, then the modes in the order given (upstream's union).
  const authorizers: Authorizer[] = [privilegedGroupsAuthorizer([groupNames.masters])];
  const resolvers: RuleResolver[] = [];
  let rbac: RbacAuthorizer | undefined;
  for (const mode of opts.authorizationModes) {
    if (mode === 'RBAC') {
      rbac = rbacAuthorizer(policy);
      authorizers.push(rbac);
      resolvers.push(rbac);
    } else if (mode === 'AlwaysAllow') {
      const a = alwaysAllowAuthorizer();
      authorizers.push(a);
      resolvers.push(a);
    } else {
      const a = alwaysDenyAuthorizer();
      authorizers.push(a);
      resolvers.push(a);
    }
  }
  const authorizer = unionAuthorizer(authorizers);

  const endpoints: CreateOnlyEndpoint[] = [
    tokenRequestEndpoint({
      apiAudiences: opts.apiAudiences,
      maxExpirationSeconds: opts.serviceAccountMaxTokenExpirationSeconds,
      getServiceAccount: (ctx, namespace, name) => saStore.get({ ...ctx, namespace }, name) as Promise<ServiceAccount>,
      issue: async (req) =>
        issueServiceAccountToken({
          signingKey,
          issuer: opts.serviceAccountIssuers[0],
          audiences: req.audiences,
          expirationSeconds: req.expirationSeconds,
          serviceAccount: req.serviceAccount,
          boundObject: req.boundObject && { kind: req.boundObject.kind as 'Pod' | 'Secret' | 'Node', name: req.boundObject.name, uid: req.boundObject.uid },
        }),
    }),
    tokenReviewEndpoint({ tokenAuthenticator: tokens, apiAudiences: opts.apiAudiences }),
    selfSubjectReviewEndpoint(),
    selfSubjectReviewEndpoint(selfsubjectreviewsV1beta1),
    subjectAccessReviewEndpoint('SubjectAccessReview', authorizer),
    subjectAccessReviewEndpoint('LocalSubjectAccessReview', authorizer),
    subjectAccessReviewEndpoint('SelfSubjectAccessReview', authorizer),
    selfSubjectRulesReviewEndpoint(unionRuleResolver(resolvers)),
  ];
  // The escalation checks read roles as the RBAC storage does upstream (missing roles named in the plural).
  const escalationResolver = rbac && rbacAuthorizer(policy, { roleNotFound: 'registry' });
  return { authenticator, authorizer, escalationResolver, endpoints };
}
