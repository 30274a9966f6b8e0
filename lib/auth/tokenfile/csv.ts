// The CSV dialect of upstream's token file, which reads it with Go's encoding/csv defaults plus a
// variable number of fields: RFC 4180 quoting ("" escapes a quote, quoted fields may span lines),
// \r\n read as \n, empty lines skipped, no comment lines, no trimming, and a quote inside an
// unquoted field is an error. Errors carry Go's wording and 1-based line and byte column.

export interface CsvRecord {
  fields: string[];
  /** The line the record starts on. */
  line: number;
}

export const csvErrors = {
  bareQuote: 'bare " in non-quoted-field',
  quote: 'extraneous or missing " in quoted-field',
} as const;

export class CsvParseError extends Error {
  constructor(
    readonly startLine: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(
      startLine !== line
        ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`
        : `parse error on line ${line}, column ${column}: ${reason}`,
    );
    this.name = 'CsvParseError';
  }
}

/** Lines with their "\n" kept (none on a last unterminated line, which also loses a trailing "\r"). */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    const line = text.slice(start, nl + 1);
    lines.push(line.endsWith('\r\n') ? `${line.slice(0, -2)}\n` : line);
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start).replace(/\r$/, ''));
  return lines;
}

const byteLen = (s: string): number => Buffer.byteLength(s, 'utf8');
const isLineEnd = (s: string): boolean => s === '' || s === '\n';

export function parseCsv(text: string): CsvRecord[] {
  const lines = splitLines(text);
  let next = 0;
  const readLine = (): string | undefined => lines[next++];
  const records: CsvRecord[] = [];

  for (;;) {
    let line = readLine();
    while (line !== undefined && isLineEnd(line)) line = readLine();
    if (line === undefined) return records;
    const startLine = next;
    let lineNo = next;
    let col = 1;
    const fields: string[] = [];

    record: for (;;) {
      if (!line.startsWith('"')) {
        const comma = line.indexOf(',');
        const field = comma >= 0 ? line.slice(0, comma) : line.replace(/\n$/, '');
        const quote = field.indexOf('"');
        if (quote >= 0) throw new CsvParseError(startLine, lineNo, col + byteLen(field.slice(0, quote)), csvErrors.bareQuote);
        fields.push(field);
        if (comma < 0) break record;
        line = line.slice(comma + 1);
        col += byteLen(field) + 1;
        continue record;
      }
      // Quoted field: runs to a quote followed by a comma or the end of a line, across lines.
      let value = '';
      line = line.slice(1);
      col += 1;
      for (;;) {
        const quote = line.indexOf('"');
        if (quote >= 0) {
          value += line.slice(0, quote);
          col += byteLen(line.slice(0, quote)) + 1;
          line = line.slice(quote + 1);
          if (line.startsWith('"')) {
            value += '"';
            line = line.slice(1);
            col += 1;
          } else if (line.startsWith(',')) {
            fields.push(value);
            line = line.slice(1);
            col += 1;
            continue record;
          } else if (isLineEnd(line)) {
            fields.push(value);
            break record;
          } else {
            throw new CsvParseError(startLine, lineNo, col - 1, csvErrors.quote);
          }
        } else if (line.length > 0) {
          value += line;
          col += byteLen(line);
          const more = readLine();
          line = more ?? '';
          if (more) {
            lineNo += 1;
            col = 1;
          }
        } else {
          throw new CsvParseError(startLine, lineNo, col, csvErrors.quote);
        }
      }
    }
    records.push({ fields, line: startLine });
  }
}
