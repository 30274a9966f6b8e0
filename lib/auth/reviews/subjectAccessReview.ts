// SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectAccessReview: ask the authorizer
// about someone (or oneself) without doing anything. Validation and messages as upstream.
import {
  groups,
  localsubjectaccessreviews,
  LocalSubjectAccessReviewSchema,
  ResourceInfo,
  selfsubjectaccessreviews,
  SelfSubjectAccessReviewSchema,
  SubjectAccessReview,
  subjectaccessreviews,
  SubjectAccessReviewSchema,
} from '../../api';
import type { ObjectSchema } from '../../api/schema';
import { errors } from '../../machinery/errors';
import { fieldErr, FieldError } from '../../machinery/fieldErrors';
import type { CreateOnlyEndpoint } from '../../registry/createOnly';
import type { RequestContext } from '../../registry/strategy';
import type { AuthorizationAttributes, Authorizer } from '../authorizer';
import type { UserInfo } from '../user';

type Spec = NonNullable<SubjectAccessReview['spec']>;
type Flavor = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview';

const flavors: Record<Flavor, { resource: ResourceInfo; schema: ObjectSchema }> = {
  SubjectAccessReview: { resource: subjectaccessreviews, schema: SubjectAccessReviewSchema },
  LocalSubjectAccessReview: { resource: localsubjectaccessreviews, schema: LocalSubjectAccessReviewSchema },
  SelfSubjectAccessReview: { resource: selfsubjectaccessreviews, schema: SelfSubjectAccessReviewSchema },
};

function validateSpec(spec: Spec, checkUser: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (checkUser && !spec.user && !spec.groups?.length) {
    errs.push(fieldErr.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return errs;
}

/** metadata must be empty (managedFields aside; a local review may carry its namespace). */
function validateMetadata(meta: SubjectAccessReview['metadata'], allowNamespace: boolean): FieldError[] {
  const rest = Object.entries(meta ?? {}).filter(([k, v]) => {
    if (k === 'managedFields' || v === undefined || v === null || v === '') return false;
    if (allowNamespace && k === 'namespace') return false;
    if (typeof v === 'object' && Object.keys(v).length === 0) return false;
    return true;
  });
  return rest.length ? [fieldErr.invalid('metadata', meta, 'must be empty')] : [];
}

/** The authorizer's attributes for a review spec asked as `user`. */
export function reviewAttributes(spec: Spec, user: UserInfo): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      isResourceRequest: true,
      path: '',
      namespace: r.namespace ?? '',
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      name: r.name ?? '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', isResourceRequest: false, path: n.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

function subjectOf(flavor: Flavor, spec: Spec, ctx: RequestContext): UserInfo {
  if (flavor === 'SelfSubjectAccessReview') return ctx.user;
  return { name: spec.user ?? '', uid: spec.uid || undefined, groups: [...(spec.groups ?? [])], extra: spec.extra };
}

export function subjectAccessReviewEndpoint(flavor: Flavor, authorizer: Authorizer): CreateOnlyEndpoint {
  const { resource, schema } = flavors[flavor];
  const gk = { group: groups.authorization, kind: flavor };
  return {
    resource,
    subresource: '',
    body: { schema, group: groups.authorization, version: 'v1', kind: flavor },
    async create(ctx, _name, obj) {
      const review = obj as SubjectAccessReview;
      const spec: Spec = review.spec ?? {};
      const errs = [...validateSpec(spec, flavor !== 'SelfSubjectAccessReview'), ...validateMetadata(review.metadata, flavor === 'LocalSubjectAccessReview')];
      if (errs.length) throw errors.invalid(gk, '', errs);
      if (flavor === 'LocalSubjectAccessReview') {
        if (spec.nonResourceAttributes) throw errors.badRequest(`disallowed on this kind of request: ${JSON.stringify(spec.nonResourceAttributes)}`);
        const ns = spec.resourceAttributes?.namespace ?? '';
        if (ns !== ctx.namespace) throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.namespace}`);
      }
      const d = authorizer.authorize(reviewAttributes(spec, subjectOf(flavor, spec, ctx)));
      const status: NonNullable<SubjectAccessReview['status']> = { allowed: d.decision === 'allow' };
      if (d.decision === 'deny') status.denied = true;
      if (d.reason) status.reason = d.reason;
      if (d.evaluationError) status.evaluationError = d.evaluationError;
      return {
        kind: flavor,
        apiVersion: `${groups.authorization}/v1`,
        metadata: { ...review.metadata },
        spec,
        status,
      };
    },
  };
}
