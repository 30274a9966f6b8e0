import { canonicalTime, formatRFC3339, parseGoRFC3339, TimeParseError } from './goTime';

describe('parseGoRFC3339', () => {
  it.each([
    ['2024-01-10T08:00:00Z', '2024-01-10T08:00:00Z'],
    ['2024-01-10T08:00:00.999999Z', '2024-01-10T08:00:00Z'],
    ['2024-01-10T09:30:00+01:30', '2024-01-10T08:00:00Z'],
    ['2024-01-10T8:00:00Z', '2024-01-10T08:00:00Z'],
    ['2024-02-29T00:00:00-00:00', '2024-02-29T00:00:00Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
  ])('%s → %s', (input, out) => expect(formatRFC3339(parseGoRFC3339(input))).toBe(out));

  const layout = '"2006-01-02T15:04:05Z07:00"';
  it.each([
    ['', `parsing time "" as ${layout}: cannot parse "" as "2006"`],
    ['abc', `parsing time "abc" as ${layout}: cannot parse "abc" as "2006"`],
    ['2024-01-10', `parsing time "2024-01-10" as ${layout}: cannot parse "" as "T"`],
    ['2024-01-10 08:00:00Z', `parsing time "2024-01-10 08:00:00Z" as ${layout}: cannot parse " 08:00:00Z" as "T"`],
    ['2024-1-10T08:00:00Z', `parsing time "2024-1-10T08:00:00Z" as ${layout}: cannot parse "1-10T08:00:00Z" as "01"`],
    ['2024-01-10T08:00:00', `parsing time "2024-01-10T08:00:00" as ${layout}: cannot parse "" as "Z07:00"`],
    ['2024-01-10T08:00:00z', `parsing time "2024-01-10T08:00:00z" as ${layout}: cannot parse "z" as "Z07:00"`],
    ['2024-13-10T08:00:00Z', 'parsing time "2024-13-10T08:00:00Z": month out of range'],
    ['2024-01-10T24:00:00Z', 'parsing time "2024-01-10T24:00:00Z": hour out of range'],
    ['2024-01-10T08:60:00Z', 'parsing time "2024-01-10T08:60:00Z": minute out of range'],
    ['2023-02-29T08:00:00Z', 'parsing time "2023-02-29T08:00:00Z": day out of range'],
    ['2024-01-10T08:00:00Zjunk', 'parsing time "2024-01-10T08:00:00Zjunk": extra text: "junk"'],
    ['2024-01-10T08:00:00+25:00', 'parsing time "2024-01-10T08:00:00+25:00": time zone offset hour out of range'],
    ['héllo', `parsing time "h\\xc3\\xa9llo" as ${layout}: cannot parse "h\\xc3\\xa9llo" as "2006"`],
  ])('%j fails like Go', (input, message) => {
    expect(() => parseGoRFC3339(input)).toThrow(TimeParseError);
    expect(() => parseGoRFC3339(input)).toThrow(message);
  });

  it('canonicalTime returns undefined for garbage', () => {
    expect(canonicalTime('nope')).toBeUndefined();
    expect(canonicalTime('2024-01-10T08:00:00.123Z')).toBe('2024-01-10T08:00:00Z');
  });
});
