// A small flag parser with upstream (pflag) habits: --name=value, --name value, boolean
// --name / --name=false, repeated string-slice flags, and --help listing every flag.

import { FeatureGateError, FeatureGates } from '../lib/api/featureGates';
import { DurationError, parseGoDuration } from '../lib/machinery/goDuration';

export type FlagType = 'string' | 'int' | 'bool' | 'duration' | 'stringSlice';

export interface FlagSpec {
  name: string;
  type: FlagType;
  default: string | number | boolean | string[];
  help: string;
}

export type FlagValues = Record<string, string | number | boolean | string[]>;

export class FlagError extends Error {}

/** Go time.ParseDuration, in milliseconds (flag errors as FlagError). */
export function parseDuration(s: string): number {
  try {
    return parseGoDuration(s);
  } catch (e) {
    if (e instanceof DurationError) throw new FlagError(e.message);
    throw e;
  }
}

export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): { values: FlagValues; help: boolean } {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const values: FlagValues = {};
  for (const s of specs) values[s.name] = Array.isArray(s.default) ? [...s.default] : s.default;
  const seenSlices = new Set<string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument ${JSON.stringify(arg)}`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) throw new FlagError(`unknown flag: --${name}`);
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else if (spec.type === 'bool') raw = 'true';
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
      raw = argv[++i];
    }
    values[name] = convert(spec, raw, values[name], seenSlices);
  }
  return { values, help };
}

function convert(spec: FlagSpec, raw: string, prev: FlagValues[string], seenSlices: Set<string>): FlagValues[string] {
  const bad = (why: string): never => {
    throw new FlagError(`invalid argument ${JSON.stringify(raw)} for "--${spec.name}" flag: ${why}`);
  };
  switch (spec.type) {
    case 'string':
      return raw;
    case 'int':
      if (!/^-?\d+$/.test(raw)) bad(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
      return Number(raw);
    case 'bool':
      if (['true', '1', 't', 'T', 'TRUE', 'True'].includes(raw)) return true;
      if (['false', '0', 'f', 'F', 'FALSE', 'False'].includes(raw)) return false;
      return bad(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    case 'duration':
      try {
        return parseDuration(raw);
      } catch (e) {
        return bad((e as Error).message);
      }
    case 'stringSlice': {
      const items = raw.split(',').map((x) => x.trim()).filter(Boolean);
      // The first use replaces the default; later uses append, as pflag does.
      const base = seenSlices.has(spec.name) ? (prev as string[]) : [];
      seenSlices.add(spec.name);
      return [...base, ...items];
    }
  }
}

export function usage(program: string, specs: readonly FlagSpec[]): string {
  const lines = [`Usage:\n  ${program} [flags]\n\nFlags:`];
  for (const s of specs) {
    const def = defaultText(s);
    const type = s.type === 'bool' ? '' : ` ${s.type === 'stringSlice' ? 'strings' : s.type}`;
    // Multi-line help (--feature-gates' list) keeps its indentation, as pflag's usage does.
    const help = s.help.split('\n').join('\n            ');
    lines.push(`      --${s.name}${type}\n            ${help}${def ? ` (default ${def})` : ''}`);
  }
  lines.push('  -h, --help\n            help for ' + program);
  return lines.join('\n') + '\n';
}

/**
 * --feature-gates through the one registry: its errors as pflag reports a failing Value.Set
 * (featuregate's AddFlag), exit code 1 like every flag error.
 */
export function parseFeatureGatesFlag(v: FlagValues): FeatureGates {
  try {
    return FeatureGates.parse(String(v['feature-gates']));
  } catch (e) {
    if (!(e instanceof FeatureGateError)) throw e;
    throw new FlagError(`invalid argument ${JSON.stringify(v['feature-gates'])} for "--feature-gates" flag: ${e.message}`);
  }
}

/** What a command's flag parser returns when --help was given. */
export const helpRequested: unique symbol = Symbol('help');

/**
 * A command's options from `parse`, printed as cobra does: usage on stdout for --help, and
 * `Error: …` plus the hint on stderr with exit code 1 for a FlagError. Undefined: nothing to run.
 */
export function commandLineOptions<T>(program: string, about: string, specs: readonly FlagSpec[], parse: () => T | typeof helpRequested): T | undefined {
  try {
    const parsed = parse();
    if (parsed !== helpRequested) return parsed;
    process.stdout.write(`${about}\n\n${usage(program, specs)}`);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    process.stderr.write(`Error: ${e.message}\nRun '${program} --help' for usage.\n`);
    process.exitCode = 1;
  }
  return undefined;
}

/** pflag's rendering of a default: strings quoted, durations in Go form, slices in brackets; zero values omitted. */
function defaultText(s: FlagSpec): string {
  switch (s.type) {
    case 'string':
      return s.default === '' ? '' : JSON.stringify(s.default);
    case 'stringSlice':
      return (s.default as string[]).length ? `[${(s.default as string[]).join(',')}]` : '';
    case 'bool':
      return s.default === true ? 'true' : '';
    case 'int':
      return s.default === 0 ? '' : String(s.default);
    case 'duration':
      return s.default === 0 ? '' : formatGoDuration(Number(s.default));
  }
}

/** Go's time.Duration.String for whole milliseconds: 1m0s, 5m0s, 8760h0m0s, 1.5s, 250ms. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = (ms % 60_000) / 1000;
  const secText = `${Number.isInteger(sec) ? sec : sec.toFixed(3).replace(/0+$/, '')}s`;
  if (h) return `${h}h${m}m${secText}`;
  if (m) return `${m}m${secText}`;
  return secText;
}
