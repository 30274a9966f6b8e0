// Type-check messages in cel-go's wording where cel-js's checker reports the same issue, and
// cel-go's display form (common.Errors.ToDisplayString): "ERROR: <input>:line:col: message",
// the source line and a caret under the column.

const binaryFunctions: Record<string, string> = {
  '+': '_+_', '-': '_-_', '*': '_*_', '/': '_/_', '%': '_%_',
  '==': '_==_', '!=': '_!=_', '<': '_<_', '<=': '_<=_', '>': '_>_', '>=': '_>=_', in: '@in',
};

/** cel-js's message → cel-go's, for the issues both checkers report. */
export function celGoMessage(message: string): string {
  const first = message.split('\n')[0]!;
  let m = /^No such key: (.+)$/.exec(first);
  if (m) return `undefined field '${m[1]}'`;
  m = /^Unknown variable: (.+)$/.exec(first);
  if (m) return `undeclared reference to '${m[1]}' (in container '')`;
  m = /^no such overload: (.+?) (\+|-|\*|\/|%|==|!=|<=|>=|<|>|in) (.+)$/.exec(first);
  if (m) return `found no matching overload for '${binaryFunctions[m[2]!]}' applied to '(${m[1]}, ${m[3]})'`;
  m = /^found no matching overload for '([^.(]+(?:\.[^.(]+)*)\.([A-Za-z_][A-Za-z0-9_]*)\((.*)\)'$/.exec(first);
  if (m) return `found no matching overload for '${m[2]}' applied to '${m[1]}.(${m[3]})'`;
  m = /^found no matching overload for '([A-Za-z_][A-Za-z0-9_.]*)\((.*)\)'$/.exec(first);
  if (m) return `found no matching overload for '${m[1]}' applied to '(${m[2]})'`;
  return first;
}

/** One issue as cel-go displays it; `offset` is the 0-based position in the expression. */
export function formatCheckIssue(expression: string, message: string, offset: number): string {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const col = offset - lineStart;
  const text = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${celGoMessage(message)}\n | ${text}\n | ${'.'.repeat(col)}^`;
}
