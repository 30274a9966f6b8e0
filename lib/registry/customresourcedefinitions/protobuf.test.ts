// The CRD schema on the protobuf wire: upstream's field numbers (apiextensions v1 generated.proto),
// messages in field-number order, JSON values as the JSON message {raw = 1}, and a lossless round trip.
import { CustomResourceColumnDefinitionSchema, CustomResourceDefinitionSchema, CustomResourceDefinitionVersionSchema, JSONSchemaPropsSchema } from '../../api';
import { decodeProtobufObject, encodeProtobufObject } from '../../codec/protobuf';
import { normalize } from '../../codec/normalize';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('CustomResourceDefinition protobuf', () => {
  const cases: [string, Record<string, unknown>, typeof JSONSchemaPropsSchema, string][] = [
    [
      'version: name 1, served 2, storage 3, deprecated 7, deprecationWarning 8, selectableFields 9 {jsonPath 1}',
      { name: 'v', served: true, storage: false, deprecated: true, deprecationWarning: 'w', selectableFields: [{ jsonPath: '.a' }] },
      CustomResourceDefinitionVersionSchema,
      '0a0176' + '1001' + '1800' + '3801' + '420177' + '4a04' + '0a022e61',
    ],
    [
      'version: schema 4 {openAPIV3Schema 1} and columns 6 come before deprecated 7',
      { name: 'v', served: true, storage: true, deprecated: true, schema: { openAPIV3Schema: { type: 'object' } }, additionalPrinterColumns: [{ name: 'n', type: 't', jsonPath: '.j' }] },
      CustomResourceDefinitionVersionSchema,
      '0a0176' + '1001' + '1801' + '220a' + '0a08' + '2a066f626a656374' + '320a' + '0a016e' + '120174' + '32022e6a' + '3801',
    ],
    [
      'JSONSchemaProps: default 8 as JSON {raw 1}, x-kubernetes-list-type 42, x-kubernetes-validations 44 {rule 1, optionalOldSelf 6}',
      { default: 5, 'x-kubernetes-validations': [{ rule: 'r', optionalOldSelf: true }], 'x-kubernetes-list-type': 'map' },
      JSONSchemaPropsSchema,
      '42030a0135' + 'd202036d6170' + 'e202050a01723001',
    ],
    ['column: name 1, type 2, priority 5, jsonPath 6', { name: 'n', type: 't', jsonPath: '.j', priority: 1 }, CustomResourceColumnDefinitionSchema, '0a016e' + '120174' + '2801' + '32022e6a'],
  ];
  it.each(cases)('%s', (_name, obj, schema, wire) => {
    expect(hex(encodeProtobufObject(obj, schema))).toBe(wire);
  });

  it('round-trips a full CRD', () => {
    const crd = {
      metadata: { name: 'widgets.example.com', generation: 2 },
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    required: ['size'],
                    properties: { size: { type: 'integer', default: 3, minimum: 1.5, enum: [1, 'two', null] }, list: { type: 'array', items: { type: 'string' } } },
                    'x-kubernetes-validations': [{ rule: 'self.size > 0', message: 'm', reason: 'FieldValueInvalid', fieldPath: '.size' }],
                  },
                  free: { 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: true },
                },
              },
            },
            subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size', labelSelectorPath: '.status.sel' } },
            additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1, description: 'd', format: 'int32' }],
            selectableFields: [{ jsonPath: '.spec.size' }],
          },
        ],
        conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's', path: '/c', port: 8443 }, caBundle: Buffer.from([1, 2, 255]).toString('base64') }, conversionReviewVersions: ['v1'] } },
      },
      status: {
        conditions: [{ type: 'Established', status: 'True', lastTransitionTime: '2026-01-10T08:00:00Z', reason: 'InitialNamesAccepted', message: 'ok' }],
        acceptedNames: { plural: 'widgets', kind: 'Widget' },
        storedVersions: ['v1'],
      },
    };
    const json = normalize(crd, CustomResourceDefinitionSchema);
    const back = normalize(decodeProtobufObject(encodeProtobufObject(json, CustomResourceDefinitionSchema), CustomResourceDefinitionSchema), CustomResourceDefinitionSchema);
    expect(back).toEqual(json);
    expect(json).toMatchObject(crd);
  });
});

describe('CustomResourceDefinition JSON shape', () => {
  it("drops Go's plain bools and ints with omitempty when false or 0, keeps pointers", () => {
    const json = normalize(
      {
        metadata: {},
        spec: {
          preserveUnknownFields: false,
          versions: [
            {
              name: 'v1',
              deprecated: false,
              additionalPrinterColumns: [{ name: 'n', type: 'string', jsonPath: '.a', priority: 0 }],
              schema: { openAPIV3Schema: { type: 'object', nullable: false, uniqueItems: false, maxLength: 0, 'x-kubernetes-preserve-unknown-fields': false, 'x-kubernetes-int-or-string': false } },
            },
          ],
        },
      },
      CustomResourceDefinitionSchema,
    ) as { spec: Record<string, unknown> & { versions: Record<string, unknown>[] } };
    expect(json.spec).not.toHaveProperty('preserveUnknownFields');
    const v = json.spec.versions[0];
    expect(v).toEqual({
      name: 'v1',
      served: false,
      storage: false,
      schema: { openAPIV3Schema: { type: 'object', maxLength: 0, 'x-kubernetes-preserve-unknown-fields': false } },
      additionalPrinterColumns: [{ name: 'n', type: 'string', jsonPath: '.a' }],
    });
  });
});
