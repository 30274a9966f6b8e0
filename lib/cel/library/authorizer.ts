// The shape behind upstream's authorizer library (apiserver/pkg/cel/library/authz.go):
// `authorizer.group(g).resource(r)[.subresource(s)][.namespace(n)][.name(n)].check(verb)`,
// `authorizer.path(p).check(httpVerb)` and `authorizer.serviceAccount(ns, name)`, each check
// giving a decision with allowed() and reason(). lib/admission backs it with our RBAC
// authorizer; the CEL bindings come with the admission plugin.

export interface CelResourceCheck {
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** AuthzSelectors (1.31+): passed to the authorizer as written; RBAC does not read them. */
  fieldSelector?: string;
  labelSelector?: string;
  verb: string;
}
export interface CelPathCheck {
  path: string;
  verb: string;
}
export interface CelAuthorizerDecision {
  allowed: boolean;
  reason: string;
}

/** Decides for the request's user (or a service account chosen with serviceAccount()). */
export interface CelAuthorizer {
  checkResource(check: CelResourceCheck): CelAuthorizerDecision;
  checkPath(check: CelPathCheck): CelAuthorizerDecision;
  /** The authorizer for system:serviceaccount:<namespace>:<name>. */
  forServiceAccount(namespace: string, name: string): CelAuthorizer;
}
