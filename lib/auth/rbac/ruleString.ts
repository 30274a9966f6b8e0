// How upstream prints rules in escalation errors (pkg/apis/rbac/v1 CompactString):
// `{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}`, empty fields left out.
import type { PolicyRule } from '../../api/rbac';
import { goQuote } from '../../machinery/goStrconv';

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(items: readonly string[] | undefined): string {
  return `[${(items ?? []).map(goQuote).join(' ')}]`;
}

export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${goQuoteList(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${goQuoteList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}
