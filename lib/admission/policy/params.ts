// The parameters one binding evaluates its policy with (upstream generic.CollectParams).
import type { ApiObject, ValidatingAdmissionPolicyBinding } from '../../api';
import type { CompiledPolicy } from './compiled';
import type { ParamKind, PolicyPluginDeps } from './deps';

/**
 * The parameters a binding evaluates with (upstream generic.CollectParams): [null] without a
 * paramKind; else the named object or those the selector matches, or an error string for a
 * configuration problem.
 */
export async function collectParams(deps: PolicyPluginDeps, p: CompiledPolicy, b: ValidatingAdmissionPolicyBinding, requestNamespace: string): Promise<(ApiObject | null)[] | string> {
  const kind = p.policy.spec?.paramKind;
  if (!kind) return [null];
  const ref = b.spec?.paramRef;
  const gvk = `${kind.apiVersion ?? ''}, Kind=${kind.kind ?? ''}`;
  if (!ref) return `paramKind kind \`${gvk}\` is defined but paramRef is not set`;
  const pk: ParamKind = { apiVersion: kind.apiVersion ?? '', kind: kind.kind ?? '' };
  const scope = deps.paramScope(pk);
  if (!scope) return `failed to find resource referenced by paramKind: '${gvk}'`;
  let namespace = '';
  if (scope.namespaced) {
    namespace = ref.namespace || requestNamespace;
    if (!namespace) return 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources';
  }
  const found: ApiObject[] = [];
  if (ref.name) {
    const obj = await deps.param(pk, namespace, ref.name);
    if (obj) found.push(obj);
  } else if (ref.selector) {
    // Params carry their kind, as upstream's wrappedParam gives list items their TypeMeta.
    for (const obj of await deps.paramsBySelector(pk, namespace, ref.selector)) found.push({ ...obj, apiVersion: pk.apiVersion, kind: pk.kind });
  }
  if (found.length === 0) {
    if ((ref.parameterNotFoundAction ?? 'Deny') === 'Deny') return 'no params found for policy binding with `Deny` parameterNotFoundAction';
    return [];
  }
  return found;
}
