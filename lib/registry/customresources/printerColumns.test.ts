// Cells and definitions of a custom resource's printer columns; upstream's tableconvertor_test.go
// tables are ported at the end. Also the logical default
// column of apiserver/helpers.go.
import type { ApiObject } from '../../api';
import { nameColumn, tableRows } from '../tableColumns';
import { cellForJsonValue, printerColumns, printerColumnsError, scalePrinterColumns, type AdditionalPrinterColumn } from './printerColumns';

const now = new Date('2026-01-10T10:00:00Z');
const col = (type: string, jsonPath: string, extra: Partial<AdditionalPrinterColumn> = {}): AdditionalPrinterColumn => ({ name: 'C', type, jsonPath, ...extra });
const cell = (c: AdditionalPrinterColumn, obj: unknown): unknown => tableRows(printerColumns([c]), [obj as ApiObject], now)[0].cells[1];

describe('printerColumns: definitions', () => {
  it('serves Name and Age when the version declares no columns', () => {
    const cols = printerColumns([]);
    expect(cols[0]).toBe(nameColumn);
    expect(cols.map((c) => c.definition)).toEqual([
      nameColumn.definition,
      { name: 'Age', type: 'date', format: '', priority: 0, description: expect.stringContaining('CreationTimestamp is a timestamp') },
    ]);
    expect(nameColumn.definition).toMatchObject({ name: 'Name', type: 'string', format: 'name' });
    expect(tableRows(cols, [{ metadata: { name: 'a', creationTimestamp: '2026-01-10T09:55:00Z' } } as ApiObject], now)[0].cells).toEqual(['a', '5m']);
  });

  it('adds no Age column when columns are given; keeps name, type, format, priority and description', () => {
    const cols = printerColumns([
      { name: 'Replicas', type: 'integer', format: 'int32', priority: 1, description: 'desired', jsonPath: '.spec.replicas' },
      { name: 'Host', type: 'string', jsonPath: '.spec.host' },
    ]);
    expect(cols.map((c) => c.definition)).toEqual([
      nameColumn.definition,
      { name: 'Replicas', type: 'integer', format: 'int32', priority: 1, description: 'desired' },
      { name: 'Host', type: 'string', format: '', priority: 0, description: 'Custom resource definition column (in JSONPath format): .spec.host' },
    ]);
  });

  it('stops at a column whose path does not parse, as upstream serves its partial convertor', () => {
    const given = [col('string', '.spec.a'), col('string', '.spec[?(@.x'), col('string', '.spec.b')];
    expect(printerColumns(given).map((c) => c.definition.description)).toEqual([
      nameColumn.definition.description,
      'Custom resource definition column (in JSONPath format): .spec.a',
    ]);
    expect(printerColumnsError(given)).toBe('unrecognized column definition ".spec[?(@.x"');
    expect(printerColumnsError([col('string', '.spec.a')])).toBeUndefined();
  });
});

describe('printerColumns: cells (cellForJSONValue)', () => {
  const obj = {
    metadata: { name: 'n', creationTimestamp: '2026-01-10T09:00:00Z' },
    spec: {
      int: 3,
      float: 2.7,
      neg: -2.7,
      huge: 1e300,
      yes: true,
      text: 'hi',
      none: null,
      obj: { b: 1, a: '<x>' },
      list: [1, 'two'],
      when: '2026-01-09T10:00:00Z',
      badWhen: 'yesterday',
      emptyWhen: '',
      nullWhen: 'null',
      zeroWhen: '0001-01-01T00:00:00Z',
      future: '2026-01-10T10:00:05Z',
      items: [{ n: 'first' }, { n: 'second' }],
    },
  };
  it.each<[string, string, unknown]>([
    ['integer', '.spec.int', 3],
    ['integer', '.spec.float', 2],
    ['integer', '.spec.neg', -2],
    ['integer', '.spec.huge', -(2 ** 63)],
    ['integer', '.spec.text', null],
    ['integer', '.spec.missing', null],
    ['number', '.spec.int', 3],
    ['number', '.spec.float', 2.7],
    ['number', '.spec.yes', null],
    ['boolean', '.spec.yes', true],
    ['boolean', '.spec.int', null],
    ['string', '.spec.text', 'hi'],
    ['string', '.spec.int', '3'],
    ['string', '.spec.float', '2.7'],
    ['string', '.spec.yes', 'true'],
    ['string', '.spec.obj', '{"a":"\\u003cx\\u003e","b":1}'],
    ['string', '.spec.list', '[1,"two"]'],
    ['string', '.spec.none', '<no value>'],
    ['string', '.spec.missing', null],
    ['integer', '.spec.none', null],
    ['date', '.spec.when', '24h'],
    ['date', '.metadata.creationTimestamp', '60m'],
    ['date', '.spec.badWhen', '<invalid>'],
    ['date', '.spec.emptyWhen', '<unknown>'],
    ['date', '.spec.nullWhen', '<unknown>'],
    ['date', '.spec.zeroWhen', '<unknown>'],
    ['date', '.spec.future', '<invalid>'],
    ['date', '.spec.int', null],
    ['object', '.spec.obj', null],
    // only the first result is shown
    ['string', '.spec.items[*].n', 'first'],
    // evaluation errors are empty cells
    ['string', '.spec.text[0]', null],
    ['string', '.spec.items[5].n', null],
  ])('%s at %s', (type, path, want) => {
    expect(cell(col(type, path), obj)).toEqual(want);
  });

  it('an evaluation past the step budget is an empty cell', () => {
    let deep: unknown = { x: 1 };
    for (let i = 0; i < 300_000; i++) deep = [deep];
    expect(cell(col('string', '..x'), { metadata: {}, spec: deep })).toBeNull();
  });
});

describe('upstream Test_cellForJSONValue', () => {
  const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const hour = 3600_000;
  it.each<[string, unknown, unknown]>([
    ['integer', 42, 42],
    ['integer', 3.14, 3],
    ['integer', true, null],
    ['integer', 'foo', null],
    ['number', 42, 42],
    ['number', 3.14, 3.14],
    ['number', true, null],
    ['number', 'foo', null],
    ['boolean', 42, null],
    ['boolean', 3.14, null],
    ['boolean', true, true],
    ['boolean', 'foo', null],
    ['string', 42, null],
    ['string', 3.14, null],
    ['string', true, null],
    ['string', 'foo', 'foo'],
    ['date', 42, null],
    ['date', 3.14, null],
    ['date', true, null],
    ['date', ago(12 * hour + 30 * 60_000), '12h'],
    ['date', ago(-(12 * hour + 30 * 60_000)), '<invalid>'],
    ['date', '', '<unknown>'],
    ['unknown', 'foo', null],
  ])('%s %p', (type, value, want) => {
    expect(cellForJsonValue(type, value as never, now)).toEqual(want);
  });
});

describe('upstream Test_convertor_ConvertToTable (additional columns)', () => {
  const row = (cols: AdditionalPrinterColumn[], obj: unknown): unknown[] => tableRows(printerColumns(cols), [obj as ApiObject], now)[0].cells;
  const paths = ['.spec.servers[0].hosts[0]', '.spec.servers[0].hosts', '.spec.servers[1].hosts', '.spec.servers[*].hosts'];
  const servers = { metadata: { name: 'blah' }, spec: { servers: [{ hosts: ['foo'] }, { hosts: ['bar', 'baz'] }] } };
  const foo = { metadata: { name: 'blah' }, spec: { foo: [{ bar: [1] }, { bar: [2, 3] }] } };
  it('multiple string values: only the first result of each column', () => {
    expect(row(paths.map((p) => col('string', p)), servers)).toEqual(['blah', 'foo', '["foo"]', '["bar","baz"]', '["foo"]']);
  });
  it('multiple integer values as string', () => {
    const p = paths.map((x) => x.replace('servers', 'foo').replaceAll('hosts', 'bar'));
    expect(row(p.map((x) => col('string', x)), foo)).toEqual(['blah', '1', '[1]', '[2,3]', '[1]']);
  });
  it('multiple integer values: lists are no integer', () => {
    const p = paths.map((x) => x.replace('servers', 'foo').replaceAll('hosts', 'bar'));
    expect(row(p.map((x) => col('integer', x)), foo)).toEqual(['blah', 1, null, null, null]);
  });
});

describe('scalePrinterColumns (getScaleColumnsForVersion)', () => {
  it('Desired and Available from the Scale object when the paths are set, Age always', () => {
    const scale = { metadata: { name: 's', creationTimestamp: '2026-01-10T09:59:00Z' }, spec: { replicas: 3 }, status: { replicas: 2 } };
    const cols = scalePrinterColumns({ specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' });
    expect(cols.map((c) => [c.definition.name, c.definition.type, c.definition.description.slice(0, 26)])).toEqual([
      ['Name', 'string', nameColumn.definition.description.slice(0, 26)],
      ['Desired', 'integer', 'Number of desired replicas'],
      ['Available', 'integer', 'Number of actual replicas'],
      ['Age', 'date', 'CreationTimestamp is a tim'],
    ]);
    expect(tableRows(cols, [scale as unknown as ApiObject], now)[0].cells).toEqual(['s', 3, 2, '60s']);
    expect(scalePrinterColumns({ specReplicasPath: '.spec.size' }).map((c) => c.definition.name)).toEqual(['Name', 'Desired', 'Age']);
  });
});
