import { Quantity, quantityErrors } from './quantity';
import type { QuantityFormat } from './quantity';

// Tables after apimachinery api/resource/quantity_test.go (TestQuantityParse, TestQuantityString).
const dec = (m: bigint | number, e: number) => Quantity.parse(`${m}e${e}`);
const maxAllowed = Quantity.fromInt(9223372036854775807n);

describe('Quantity.parse (TestQuantityParse)', () => {
  it.each<[string, Quantity, QuantityFormat]>([
    ['0', dec(0, 0), 'DecimalSI'],
    ['0n', dec(0, 0), 'DecimalSI'],
    ['0Ki', dec(0, 0), 'BinarySI'],
    ['0T', dec(0, 0), 'DecimalSI'],
    ['1', dec(1, 0), 'DecimalSI'],
    ['1Ki', dec(1024, 0), 'BinarySI'],
    ['7Mi', dec(7 * 1024 * 1024, 0), 'BinarySI'],
    ['3Ei', dec(3n * 1024n ** 6n, 0), 'BinarySI'],
    ['5n', dec(5, -9), 'DecimalSI'],
    ['4u', dec(4, -6), 'DecimalSI'],
    ['3m', dec(3, -3), 'DecimalSI'],
    ['50k', dec(5, 4), 'DecimalSI'],
    ['300T', dec(3, 14), 'DecimalSI'],
    ['1E', dec(1, 18), 'DecimalSI'],
    ['1E-3', dec(1, -3), 'DecimalExponent'],
    ['1e3', dec(1, 3), 'DecimalExponent'],
    ['1E18', dec(1, 18), 'DecimalExponent'],
    ['100.035k', dec(100035, 0), 'DecimalSI'],
    ['0.001', dec(1, -3), 'DecimalSI'],
    ['0.0005k', dec(5, -1), 'DecimalSI'],
    ['0.50000', dec(5, -1), 'DecimalSI'],
    ['0.5e-2', dec(5, -3), 'DecimalExponent'],
    ['1.3E+6', dec(13, 5), 'DecimalExponent'],
    ['1.7E18', dec(17, 17), 'DecimalExponent'],
    ['6.987654321G', dec(6987654321, 0), 'DecimalSI'],
    ['1.01E', dec(101, 16), 'DecimalSI'],
    ['3.001n', dec(4, -9), 'DecimalSI'],
    ['1.1E-9', dec(2, -9), 'DecimalExponent'],
    ['0.0000000005', dec(1, -9), 'DecimalSI'],
    ['0.9n', dec(1, -9), 'DecimalSI'],
    ['0.00000012345', dec(124, -9), 'DecimalSI'],
    ['9Ei', maxAllowed, 'BinarySI'],
    ['9223372036854775807Ki', maxAllowed, 'BinarySI'],
    ['12E', dec(12, 18), 'DecimalSI'],
    ['100.035Ki', dec(10243584, -2), 'BinarySI'],
    ['0.5Mi', dec(0.5 * 1024 * 1024, 0), 'BinarySI'],
    ['0.025Ti', dec(274877906944, -1), 'BinarySI'],
    ['0.000000000001Ki', dec(2, -9), 'DecimalSI'],
    ['.001', dec(1, -3), 'DecimalSI'],
    ['.0001k', dec(100, -3), 'DecimalSI'],
    ['1.', dec(1, 0), 'DecimalSI'],
    ['1.G', dec(1, 9), 'DecimalSI'],
    ['-3m', dec(-3, -3), 'DecimalSI'],
    ['-0.0000000001', dec(-1, -9), 'DecimalSI'],
    // upstream's parser reads an absent number as 0 (its CEL docs call quantity('Mi') an error; the code does not)
    ['Mi', dec(0, 0), 'BinarySI'],
  ])('%s', (input, want, format) => {
    const q = Quantity.parse(input);
    expect(q.cmp(want)).toBe(0);
    expect(q.format).toBe(format);
  });

  it.each<[string, string]>([
    ['', quantityErrors.formatWrong],
    ['10Mo', quantityErrors.formatWrong],
    ['1.5.5', quantityErrors.formatWrong],
    ['Three', quantityErrors.formatWrong],
    ['1.1.M', quantityErrors.formatWrong],
    ['1+1.0M', quantityErrors.formatWrong],
    ['0.1mi', quantityErrors.suffix],
    ['0.1am', quantityErrors.formatWrong],
    ['.5i', quantityErrors.suffix],
    ['-3.01e-', quantityErrors.suffix],
    [' 1', quantityErrors.formatWrong],
    ['1 ', quantityErrors.formatWrong],
    ['1,3G', quantityErrors.formatWrong],
    ['10Mm', quantityErrors.suffix],
    ['200K', quantityErrors.suffix],
    ['1e', quantityErrors.suffix],
  ])('%j fails: %s', (input, message) => {
    expect(() => Quantity.parse(input)).toThrow(message);
    expect(Quantity.isValid(input)).toBe(false);
  });

  it('names upstream regular expression', () => {
    expect(quantityErrors.formatWrong).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });
});

describe('Quantity.toString (TestQuantityString)', () => {
  it.each<[string, string]>([
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['307200Ki', '300Mi'],
    ['6Ki', '6Ki'],
    ['1025024Mi', '1001Gi'],
    ['1024Gi', '1Ti'],
    ['5', '5'],
    ['1000M', '1G'],
    ['0.001T', '1G'],
    ['1000u', '1m'],
    ['80m', '80m'],
    ['1.08', '1080m'],
    ['1080000000n', '1080m'],
    ['1234567M', '1234567M'],
    ['3k', '3k'],
    ['1025', '1025'],
    ['0', '0'],
    ['.001e12', '1e9'],
    ['0.001e0', '1e-3'],
    ['1000e-12', '1e-9'],
    ['80e-3', '80e-3'],
    ['300e6', '300e6'],
    ['00', '0'],
    ['1n', '1n'],
    ['1080u', '1080u'],
    ['0.5Ki', '512'],
    ['1.5Ki', '1536'],
    ['0.5Mi', '512Ki'],
    ['1.1Ki', '1126400m'],
    ['-5Gi', '-5Gi'],
    ['50.02k', '50020'],
  ])('%s → %s', (input, want) => {
    expect(Quantity.parse(input).toString()).toBe(want);
  });
});

describe('Quantity arithmetic', () => {
  it('adds and subtracts exactly, keeping the receiver format', () => {
    const a = Quantity.parse('50k').add(Quantity.parse('20'));
    expect(a.toString()).toBe('50020');
    expect(a.format).toBe('DecimalSI');
    expect(Quantity.parse('0').add(Quantity.parse('1Ki')).format).toBe('BinarySI');
    expect(Quantity.parse('1Ki').sub(Quantity.parse('1Ki')).toString()).toBe('0');
    expect(Quantity.parse('50k').sub(Quantity.fromInt(20n)).toString()).toBe('49980');
  });
  it.each<[string, bigint | undefined]>([
    ['50k', 50000n],
    ['1.5', undefined],
    ['1500m', undefined],
    ['2000m', 2n],
    ['9999999999999999999999999999999999999G', undefined],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775808', undefined],
  ])('asInt64(%s)', (input, want) => expect(Quantity.parse(input).asInt64()).toBe(want));
  it('compares, signs and approximates', () => {
    expect(Quantity.parse('50M').cmp(Quantity.parse('50Mi'))).toBe(-1);
    expect(Quantity.parse('200M').equals(Quantity.parse('0.2G'))).toBe(true);
    expect(Quantity.parse('-1m').sign()).toBe(-1);
    expect(Quantity.parse('0Ki').sign()).toBe(0);
    expect(Quantity.parse('50.703k').asApproximateFloat()).toBe(50703);
  });
  it('refuses exponents it cannot hold exactly', () => {
    expect(Quantity.isValid('1e1000')).toBe(true);
    expect(Quantity.isValid('1e99999999')).toBe(false);
  });
});
