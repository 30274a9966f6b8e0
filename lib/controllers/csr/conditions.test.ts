import { approvalState, formatApiTime, hasTrueCondition, isApproved, parseApiTime, withCondition } from './conditions';
import { approved, csrObject, denied, failed } from './testing/builders';

describe('CSR conditions', () => {
  test.each([
    ['none', [], { approved: false, denied: false }, false],
    ['approved', [approved()], { approved: true, denied: false }, true],
    ['denied', [denied()], { approved: false, denied: true }, false],
    ['both', [approved(), denied()], { approved: true, denied: true }, false],
    ['approved by type whatever the status', [approved(undefined, 'Unknown')], { approved: true, denied: false }, true],
  ])('%s', (_name, conditions, state, isApprovedResult) => {
    const csr = csrObject({ conditions });
    expect(approvalState(csr)).toEqual(state);
    expect(isApproved(csr)).toBe(isApprovedResult);
  });

  test.each([
    ['True', 'True', true],
    ['empty', '', true],
    ['False', 'False', false],
    ['Unknown', 'Unknown', false],
  ])('hasTrueCondition with status %s', (_name, status, expected) => {
    expect(hasTrueCondition(csrObject({ conditions: [failed(undefined, status)] }), 'Failed')).toBe(expected);
    expect(hasTrueCondition(csrObject({ conditions: [approved()] }), 'Failed')).toBe(false);
  });

  it('withCondition appends to a copy', () => {
    const csr = csrObject({ conditions: [approved()] });
    const next = withCondition(csr, failed('2026-01-10T08:00:00Z'));
    expect(next.status?.conditions).toEqual([approved(), failed('2026-01-10T08:00:00Z')]);
    expect(csr.status?.conditions).toEqual([approved()]);
    expect(withCondition(csrObject(), approved()).status?.conditions).toEqual([approved()]);
  });

  it('formats and reads metav1.Time', () => {
    expect(formatApiTime(Date.parse('2026-01-10T08:02:00.999Z'))).toBe('2026-01-10T08:02:00Z');
    expect(parseApiTime('2026-01-10T08:02:00Z')).toBe(Date.parse('2026-01-10T08:02:00Z'));
    expect(parseApiTime('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(parseApiTime('')).toBeUndefined();
    expect(parseApiTime(null)).toBeUndefined();
    expect(parseApiTime('not a time')).toBeUndefined();
  });
});
