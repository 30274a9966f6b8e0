// A selection predicate: label and field selectors evaluated against one object.
import type { ApiObject } from '../api';

export interface LabelMatcher {
  matches(labels: Record<string, string>): boolean;
  isEmpty(): boolean;
}
export interface FieldMatcher {
  matches(fields: Record<string, string>): boolean;
  isEmpty(): boolean;
}

export interface SelectionPredicate {
  matches(obj: ApiObject): boolean;
  /** True when no selector restricts anything (remainingItemCount is reported only then). */
  readonly everything: boolean;
}

export const everything: SelectionPredicate = { matches: () => true, everything: true };

export function selectionPredicate(
  label: LabelMatcher | undefined,
  field: FieldMatcher | undefined,
  fieldsOf: (obj: ApiObject) => Record<string, string>,
): SelectionPredicate {
  const l = label && !label.isEmpty() ? label : undefined;
  const f = field && !field.isEmpty() ? field : undefined;
  if (!l && !f) return everything;
  return {
    everything: false,
    matches(obj: ApiObject): boolean {
      if (l && !l.matches(obj.metadata?.labels ?? {})) return false;
      if (f && !f.matches(fieldsOf(obj))) return false;
      return true;
    },
  };
}
