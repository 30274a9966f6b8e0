// Property-name escaping (spec §4.10.2, upstream apiserver/pkg/cel/escaping.go): JSON property
// names become CEL identifiers. Names outside [a-zA-Z_.-/][a-zA-Z0-9_.-/]* are not accessible.

/** CEL's reserved words; a property with exactly this name is escaped to __{word}__. */
export const celReservedSymbols: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const escapable = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;
const escapes: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/** The CEL identifier for a property name, or undefined when the name cannot be accessed. */
export function escapeName(name: string): string | undefined {
  if (celReservedSymbols.has(name)) return `__${name}__`;
  if (!escapable.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) => escapes[m] ?? m);
}

const unescapes: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** The property name for a CEL identifier (the inverse of escapeName). */
export function unescapeName(ident: string): string {
  const kw = /^__([a-z]+)__$/.exec(ident);
  if (kw && celReservedSymbols.has(kw[1]!)) return kw[1]!;
  return ident.replace(/__(underscores|dot|dash|slash)__/g, (_m, w: string) => unescapes[w]!);
}
