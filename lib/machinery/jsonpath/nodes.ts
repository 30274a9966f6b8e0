// The parse tree of a client-go JSONPath template (k8s.io/client-go/util/jsonpath, node.go).
// The shapes follow upstream's node types so the parser's tests can be ported as written.

/** One of start, end, step of an array selection; `derived` marks the end of a single index ([i] is [i:i+1]). */
export interface SliceParam {
  readonly value: number;
  readonly known: boolean;
  readonly derived: boolean;
}

export interface ListNode {
  readonly type: 'list';
  readonly nodes: JsonPathNode[];
}

export type JsonPathNode =
  | ListNode
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'field'; readonly name: string }
  | { readonly type: 'identifier'; readonly name: string }
  | { readonly type: 'array'; readonly params: readonly [SliceParam, SliceParam, SliceParam] }
  | { readonly type: 'filter'; readonly left: ListNode; readonly right: ListNode; readonly operator: string }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'wildcard' }
  | { readonly type: 'recursive' }
  | { readonly type: 'union'; readonly nodes: readonly ListNode[] };

export function newList(): ListNode {
  return { type: 'list', nodes: [] };
}
