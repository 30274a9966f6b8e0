// Static typing from our schemas (issue 12 item 3, upstream common.SchemaDeclType): an object
// schema becomes a cel-js object type whose fields carry CEL types — string, int, bool, bytes
// (format byte), google.protobuf.Timestamp (date-time), list<T>, map<string, T>, nested object
// types, dyn for free-form JSON. A TypedChecker type-checks expressions against such variables
// (the admission policy status controller's job); evaluation keeps dyn variables, as upstream's
// runtime does. Field names are the JSON names (admission sees unstructured objects unescaped).
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import type { FieldSchema, ObjectSchema } from '../api/schema';
import { libraryEnvironment } from './environment';
import { formatCheckIssue } from './checkIssues';

/** A variable for checking: a schema-typed object, a named CEL type, or dyn. */
export interface TypedVariable {
  name: string;
  schema?: ObjectSchema;
  /** A CEL type name (e.g. kubernetes.authorization.Authorizer, or an object type from declareObjectType). */
  type?: string;
}

export type CheckResult = { type: string; issue?: undefined } | { type?: undefined; issue: string };

export class TypedChecker {
  private readonly env: Environment;
  private readonly registered = new Map<ObjectSchema, string>();
  private anonymous = 0;

  constructor(variables: readonly TypedVariable[]) {
    this.env = libraryEnvironment();
    for (const v of variables) this.env.registerVariable(v.name, v.schema ? this.objectType(v.schema) : (v.type ?? 'dyn'));
  }

  /** Declares an object type with the given CEL field types (e.g. `variables` from the variables' checked types). */
  declareObjectType(fields: Readonly<Record<string, string>>): string {
    const name = `kubernetes.checked.Object${++this.anonymous}`;
    this.env.registerType(name, { fields: { ...fields } });
    return name;
  }

  /** Declares another variable (before the checks that use it). */
  declare(name: string, type: string): void {
    this.env.registerVariable(name, type);
  }

  /** The expression's type, or the issue as cel-go prints it (ERROR: <input>:l:c: … with the caret lines). */
  check(expression: string): CheckResult {
    let r: ReturnType<Environment['check']>;
    try {
      r = this.env.check(expression);
    } catch (e) {
      return { issue: formatCheckIssue(expression, (e as Error).message, 0) };
    }
    if (r.valid) return { type: r.type ?? 'dyn' };
    const err = r.error;
    return { issue: formatCheckIssue(expression, err?.message ?? 'invalid expression', issuePosition(expression, err)) };
  }

  /** The checked AST (for static cost estimation), or the issue. */
  checkedAst(expression: string): { ast: ASTNode; issue?: undefined } | { ast?: undefined; issue: string } {
    const c = this.check(expression);
    if (c.issue !== undefined) return { issue: c.issue };
    const parsed = this.env.parse(expression);
    parsed.check();
    return { ast: parsed.ast };
  }

  private objectType(schema: ObjectSchema): string {
    const known = this.registered.get(schema);
    if (known) return known;
    let name = `kubernetes.schema.${schema.name.replace(/[^A-Za-z0-9_.]/g, '_')}`;
    // Two schemas may share a name (a kind served in two versions): the second gets a suffix.
    if ([...this.registered.values()].includes(name)) name = `${name}_${this.registered.size}`;
    this.registered.set(schema, name);
    const fields: Record<string, string> = {};
    for (const [field, f] of Object.entries(schema.fields)) fields[field] = this.fieldType(f);
    this.env.registerType(name, { fields });
    return name;
  }

  private fieldType(f: FieldSchema): string {
    switch (f.type) {
      case 'string':
        if (f.format === 'byte') return 'bytes';
        if (f.format === 'date-time') return 'google.protobuf.Timestamp';
        return 'string';
      case 'integer':
        return 'int';
      case 'number':
        return 'double';
      case 'intOrString':
        // Upstream types x-kubernetes-int-or-string as dyn: the value is an int or a string.
        return 'dyn';
      case 'boolean':
        return 'bool';
      case 'array':
        return `list<${this.fieldType(f.items)}>`;
      case 'map':
        return `map<string, ${this.fieldType(f.values)}>`;
      case 'object':
        return this.objectType(f.ref());
      case 'any':
        return 'dyn';
    }
  }
}

interface CelIssue {
  node?: { op?: string; pos?: number; start?: number; end?: number; args?: unknown };
  range?: { start: number; end: number };
}

/**
 * Where cel-go would report the issue: a field selection at its '.', an operator at the operator,
 * a call at its '('. cel-js reports the node; we find that token in the source.
 */
function issuePosition(expression: string, error: unknown): number {
  const node = (error as CelIssue | undefined)?.node;
  if (!node) return 0;
  const start = node.start ?? node.pos ?? 0;
  const end = node.end ?? expression.length;
  if (node.op === '.' || node.op === '.?') {
    const dot = expression.lastIndexOf('.', node.pos ?? end);
    return dot >= start ? dot : start;
  }
  const args = node.args as { end?: number; range?: { end: number } }[] | undefined;
  if (node.op === 'rcall' || node.op === 'call') {
    const after = node.op === 'rcall' && Array.isArray(args) ? ((args[1] as { end?: number } | undefined)?.end ?? start) : start;
    const paren = expression.indexOf('(', after);
    return paren >= 0 && paren < end ? paren : start;
  }
  if (Array.isArray(args) && args.length === 2) {
    const leftEnd = (args[0] as { end?: number } | undefined)?.end;
    if (leftEnd !== undefined) {
      let i = leftEnd;
      while (i < end && /\s|\)/.test(expression[i]!)) i++;
      return i;
    }
  }
  return start;
}
