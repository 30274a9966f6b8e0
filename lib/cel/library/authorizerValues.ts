// upstream's authorizer library (apiserver/pkg/cel/library/authz.go) as CEL types and functions:
// authorizer.group(g).resource(r)[.subresource(s)][.namespace(n)][.name(n)].check(verb),
// fieldSelector/labelSelector (upstream's AuthzSelectors, handed to the authorizer as written),
// authorizer.path(p).check(httpVerb), authorizer.serviceAccount(ns, name), and
// authorizer.requestResource; decisions answer allowed(), reason(), errored(), error().
// A check costs upstream's fixed 350,000, so an expression affords two within PerCallLimit.
import type { CelAuthorizer, CelAuthorizerDecision } from './authorizer';
import type { CelFunction, CelLibrary, CelType } from './types';

export class DecisionValue {
  constructor(readonly decision: CelAuthorizerDecision & { error?: string }) {}
}

export class ResourceCheckValue {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly fieldSelector = '',
    readonly labelSelector = '',
  ) {}
  with(part: Partial<Pick<ResourceCheckValue, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): ResourceCheckValue {
    return new ResourceCheckValue(
      this.authz,
      this.group,
      this.resource,
      part.subresource ?? this.subresource,
      part.namespace ?? this.namespace,
      part.name ?? this.name,
      part.fieldSelector ?? this.fieldSelector,
      part.labelSelector ?? this.labelSelector,
    );
  }
}

export class GroupCheckValue {
  constructor(
    readonly authz: CelAuthorizer,
    readonly group: string,
  ) {}
}

export class PathCheckValue {
  constructor(
    readonly authz: CelAuthorizer,
    readonly path: string,
  ) {}
}

export class AuthorizerValue {
  /** The request's own resource (authorizer.requestResource), when there is a request. */
  readonly requestResource?: ResourceCheckValue;
  constructor(
    readonly authz: CelAuthorizer,
    request?: { group: string; resource: string; subresource: string; namespace: string; name: string },
  ) {
    if (request) this.requestResource = new ResourceCheckValue(authz, request.group, request.resource, request.subresource, request.namespace, request.name);
  }
}

/** The CEL type names and their constructors (registered by CelEnvironment). */
const authorizerTypes: readonly CelType[] = [
  { name: 'kubernetes.authorization.Authorizer', ctor: AuthorizerValue, fields: { requestResource: 'kubernetes.authorization.ResourceCheck' } },
  { name: 'kubernetes.authorization.GroupCheck', ctor: GroupCheckValue },
  { name: 'kubernetes.authorization.ResourceCheck', ctor: ResourceCheckValue },
  { name: 'kubernetes.authorization.PathCheck', ctor: PathCheckValue },
  { name: 'kubernetes.authorization.Decision', ctor: DecisionValue },
];

const checkCost = 350_000;
const one = (): number => 1;

function decide(f: () => CelAuthorizerDecision): DecisionValue {
  try {
    return new DecisionValue(f());
  } catch (e) {
    return new DecisionValue({ allowed: false, reason: '', error: (e as Error).message });
  }
}

const authorizerFunctions: readonly CelFunction[] = [
  { signature: 'kubernetes.authorization.Authorizer.group(string): kubernetes.authorization.GroupCheck', cost: one, handler: (a, g) => new GroupCheckValue((a as AuthorizerValue).authz, g as string) },
  { signature: 'kubernetes.authorization.Authorizer.path(string): kubernetes.authorization.PathCheck', cost: one, handler: (a, p) => new PathCheckValue((a as AuthorizerValue).authz, p as string) },
  {
    signature: 'kubernetes.authorization.Authorizer.serviceAccount(string, string): kubernetes.authorization.Authorizer',
    cost: one,
    handler: (a, ns, name) => new AuthorizerValue((a as AuthorizerValue).authz.forServiceAccount(ns as string, name as string)),
  },
  { signature: 'kubernetes.authorization.GroupCheck.resource(string): kubernetes.authorization.ResourceCheck', cost: one, handler: (g, r) => new ResourceCheckValue((g as GroupCheckValue).authz, (g as GroupCheckValue).group, r as string) },
  { signature: 'kubernetes.authorization.ResourceCheck.subresource(string): kubernetes.authorization.ResourceCheck', cost: one, handler: (c, s) => (c as ResourceCheckValue).with({ subresource: s as string }) },
  { signature: 'kubernetes.authorization.ResourceCheck.namespace(string): kubernetes.authorization.ResourceCheck', cost: one, handler: (c, n) => (c as ResourceCheckValue).with({ namespace: n as string }) },
  { signature: 'kubernetes.authorization.ResourceCheck.name(string): kubernetes.authorization.ResourceCheck', cost: one, handler: (c, n) => (c as ResourceCheckValue).with({ name: n as string }) },
  { signature: 'kubernetes.authorization.ResourceCheck.fieldSelector(string): kubernetes.authorization.ResourceCheck', cost: one, handler: (c, f) => (c as ResourceCheckValue).with({ fieldSelector: f as string }) },
  { signature: 'kubernetes.authorization.ResourceCheck.labelSelector(string): kubernetes.authorization.ResourceCheck', cost: one, handler: (c, l) => (c as ResourceCheckValue).with({ labelSelector: l as string }) },
  {
    signature: 'kubernetes.authorization.ResourceCheck.check(string): kubernetes.authorization.Decision',
    cost: () => checkCost,
    handler: (c, verb) => {
      const r = c as ResourceCheckValue;
      const selectors = { ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}), ...(r.labelSelector ? { labelSelector: r.labelSelector } : {}) };
      return decide(() =>
        r.authz.checkResource({ group: r.group, resource: r.resource, subresource: r.subresource, namespace: r.namespace, name: r.name, ...selectors, verb: verb as string }),
      );
    },
  },
  {
    signature: 'kubernetes.authorization.PathCheck.check(string): kubernetes.authorization.Decision',
    cost: () => checkCost,
    handler: (p, verb) => decide(() => (p as PathCheckValue).authz.checkPath({ path: (p as PathCheckValue).path, verb: verb as string })),
  },
  { signature: 'kubernetes.authorization.Decision.allowed(): bool', cost: one, handler: (d) => (d as DecisionValue).decision.allowed },
  { signature: 'kubernetes.authorization.Decision.reason(): string', cost: one, handler: (d) => (d as DecisionValue).decision.reason },
  { signature: 'kubernetes.authorization.Decision.errored(): bool', cost: one, handler: (d) => (d as DecisionValue).decision.error !== undefined },
  { signature: 'kubernetes.authorization.Decision.error(): string', cost: one, handler: (d) => (d as DecisionValue).decision.error ?? '' },
];

export const authorizerLibrary: CelLibrary = { types: authorizerTypes, functions: authorizerFunctions };
