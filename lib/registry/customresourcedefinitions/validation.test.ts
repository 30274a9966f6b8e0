// ValidateCustomResourceDefinition's rules with upstream's (1.32) paths and messages: a good CRD
// passes, each broken one is refused with exactly the listed errors.
import { labelDomain, productDomain, type CustomResourceDefinition, type JSONSchemaProps } from '../../api';
import { renderFieldError } from '../../machinery/fieldErrors';
import { isDNS1035Label, isDNS1123Subdomain } from '../../machinery/validation/names';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from './validation';

type CRD = CustomResourceDefinition;

const specSchema = (): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { cronSpec: { type: 'string' }, replicas: { type: 'integer' } } },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
});

const good = (): CRD => ({
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'], categories: ['all'] },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: specSchema() } }],
    conversion: { strategy: 'None' },
  },
  status: { storedVersions: ['v1'] },
});

const render = (crd: CRD): string[] => validateCustomResourceDefinition(crd).map(renderFieldError);

/** The one schema of the one version (errors are reported under spec.validation: upstream lifts it). */
const root = (crd: CRD): JSONSchemaProps => crd.spec!.versions![0].schema!.openAPIV3Schema!;
const prop = (crd: CRD, name: string): JSONSchemaProps => root(crd).properties![name];
const R = 'spec.validation.openAPIV3Schema';
const approval = `api-approved.${labelDomain}`;
const dns1035 = (v: string): string => isDNS1035Label(v).join(',');
const isDNS1123SubdomainMsg = (v: string): string => isDNS1123Subdomain(v).join(', ');

describe('ValidateCustomResourceDefinition', () => {
  it('accepts a good CRD', () => {
    expect(render(good())).toEqual([]);
  });

  const cases: [string, (c: CRD) => void, string[]][] = [
    ['name must be plural.group', (c) => (c.metadata!.name = 'crontab.stable.example.com'), ['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']],
    ['a generated name never matches', (c) => Object.assign(c.metadata!, { generateName: 'crontabs-', name: 'crontabs-x1x2x' }), [
      'metadata.generateName: Invalid value: "crontabs-": must be spec.names.plural+"."+spec.group',
      'metadata.name: Invalid value: "crontabs-x1x2x": must be spec.names.plural+"."+spec.group',
    ]],
    ['group required', (c) => { c.spec!.group = ''; c.metadata!.name = 'crontabs.'; }, ['spec.group: Required value']],
    ['group needs a dot', (c) => { c.spec!.group = 'example'; c.metadata!.name = 'crontabs.example'; }, ['spec.group: Invalid value: "example": should be a domain with at least one dot']],
    ['scope required', (c) => (c.spec!.scope = ''), ['spec.scope: Required value']],
    ['scope values', (c) => (c.spec!.scope = 'Global'), ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']],
    ['plural required (and the name rule)', (c) => { c.spec!.names!.plural = ''; c.metadata!.name = '.stable.example.com'; }, ['spec.names.plural: Required value']],
    ['kind may be mixed case, not otherwise invalid', (c) => (c.spec!.names!.kind = 'Cron_Tab'), [`spec.names.kind: Invalid value: "Cron_Tab": may have mixed case, but should otherwise match: ${dns1035('cron_tab')}`]],
    ['listKind differs from kind', (c) => (c.spec!.names!.listKind = 'CronTab'), ['spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same']],
    ['short names are DNS-1035 labels', (c) => (c.spec!.names!.shortNames = ['ok', 'Not-OK']), [`spec.names.shortNames[1]: Invalid value: "Not-OK": ${dns1035('Not-OK')}`]],
    ['categories are DNS-1035 labels', (c) => (c.spec!.names!.categories = ['a.b']), [`spec.names.categories[0]: Invalid value: "a.b": ${dns1035('a.b')}`]],
    ['accepted names are checked too', (c) => (c.status!.acceptedNames = { plural: 'Bad' }), [`status.acceptedNames.plural: Invalid value: "Bad": ${dns1035('Bad')}`]],
    ['version names are DNS-1035 labels', (c) => { c.spec!.versions![0].name = 'V1'; c.status!.storedVersions = ['V1']; }, [`spec.versions[0].name: Invalid value: "V1": ${dns1035('V1')}`]],
    ['deprecationWarning only when deprecated', (c) => (c.spec!.versions![0].deprecationWarning = 'old'), ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions']],
    ['deprecationWarning ≤ 256', (c) => Object.assign(c.spec!.versions![0], { deprecated: true, deprecationWarning: 'x'.repeat(257) }), [`spec.versions[0].deprecationWarning: Invalid value: "${'x'.repeat(257)}": must be <= 256 characters long`]],
    ['deprecationWarning not empty', (c) => Object.assign(c.spec!.versions![0], { deprecated: true, deprecationWarning: '' }), ['spec.versions[0].deprecationWarning: Invalid value: "": must not be an empty string']],
    ['deprecationWarning printable (byte index)', (c) => Object.assign(c.spec!.versions![0], { deprecated: true, deprecationWarning: 'é\tx' }), ['spec.versions[0].deprecationWarning: Invalid value: "é\\tx": must only contain printable UTF-8 characters; non-printable character found at index 2']],
    ['schemas are required', (c) => delete c.spec!.versions![0].schema, ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']],
    ['type required at the root', (c) => delete root(c).type, [`${R}.type: Required value: must not be empty at the root`]],
    ['object at the root', (c) => (c.spec!.versions![0].schema = { openAPIV3Schema: { type: 'string' } }), [`${R}.type: Invalid value: "string": must be object at the root`]],
    ['type required for fields', (c) => delete prop(c, 'spec').properties!.replicas.type, [`${R}.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields`]],
    ['type required for items', (c) => (prop(c, 'spec').properties!.list = { type: 'array', items: {} }), [`${R}.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items`]],
    ['no type needed with preserve-unknown-fields or int-or-string', (c) => Object.assign(prop(c, 'spec').properties!, { free: { 'x-kubernetes-preserve-unknown-fields': true }, port: { 'x-kubernetes-int-or-string': true } }), []],
    ['arrays need items', (c) => (prop(c, 'spec').properties!.list = { type: 'array' }), [`${R}.properties[spec].properties[list].items: Required value: must be specified`]],
    ['items as a list', (c) => (prop(c, 'spec').properties!.list = { type: 'array', items: [{ type: 'string' }] }), [`${R}.properties[spec].properties[list].items: Forbidden: items must be a schema object and not an array`]],
    ['properties and additionalProperties', (c) => (prop(c, 'spec').additionalProperties = { type: 'string' }), [`${R}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`]],
    ['additionalProperties: true beside properties is allowed', (c) => (prop(c, 'spec').additionalProperties = true), []],
    ['additionalProperties at the root', (c) => { delete root(c).properties; root(c).additionalProperties = { type: 'string' }; }, [`${R}.additionalProperties: Forbidden: must not be used at the root`]],
    ['unsupported type', (c) => (prop(c, 'spec').properties!.replicas.type = 'int'), [`${R}.properties[spec].properties[replicas].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`]],
    ['type null', (c) => (prop(c, 'spec').properties!.replicas.type = 'null'), [
      `${R}.properties[spec].properties[replicas].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
      `${R}.properties[spec].properties[replicas].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    ]],
    ['uniqueItems', (c) => (prop(c, 'spec').properties!.list = { type: 'array', items: { type: 'string' }, uniqueItems: true }), [`${R}.properties[spec].properties[list].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`]],
    ['bounds are numbers', (c) => (prop(c, 'spec').properties!.replicas.maximum = '5' as unknown as number), [`${R}.properties[spec].properties[replicas].maximum: Invalid value: "5": must be a number`]],
    ['items are schemas', (c) => (prop(c, 'spec').properties!.list = { type: 'array', items: 'string' as unknown as JSONSchemaProps }), [
      `${R}.properties[spec].properties[list].items: Required value: must be specified`,
      `${R}.properties[spec].properties[list].items: Invalid value: "string": must be a schema or a list of schemas`,
    ]],
    ['$ref', (c) => (prop(c, 'spec').properties!.replicas.$ref = '#/x'), [`${R}.properties[spec].properties[replicas].$ref: Forbidden: $ref is not supported`]],
    ['$schema: the structural converter, alone', (c) => (root(c).$schema = 'http://json-schema.org/draft-04/schema#'), [`${R}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`]],
    ['preserve-unknown-fields false', (c) => (prop(c, 'spec')['x-kubernetes-preserve-unknown-fields'] = false), [`${R}.properties[spec].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`]],
    ['nullable at the root', (c) => (root(c).nullable = true), [`${R}.nullable: Forbidden: nullable cannot be true at the root`]],
    ['metadata may only name name and generateName', (c) => (root(c).properties!.metadata = { type: 'object', properties: { labels: { type: 'object' } } }), [`${R}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`]],
    ['metadata restricting name is fine', (c) => (root(c).properties!.metadata = { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } }), []],
    ['metadata must be an object', (c) => (root(c).properties!.metadata = { type: 'string' }), [`${R}.properties[metadata].type: Invalid value: "string": must be object`]],
    ['kind must be a string at the root', (c) => (root(c).properties!.kind = { type: 'integer' }), [`${R}.properties[kind].type: Invalid value: "integer": must be string`]],
    ['defaults forbidden in top-level metadata', (c) => (root(c).properties!.metadata = { type: 'object', properties: { name: { type: 'string', default: 'x' } } }), [`${R}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`]],
    ['type inside a junctor', (c) => (prop(c, 'spec').anyOf = [{ type: 'object' }]), [`${R}.properties[spec].anyOf[0].type: Forbidden: must be empty to be structural`]],
    ['the int-or-string anyOf is allowed', (c) => (prop(c, 'spec').properties!.port = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }), []],
    ['the int-or-string allOf[0].anyOf is allowed', (c) => (prop(c, 'spec').properties!.port = { 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9]+$' }] }), []],
    ['junctor fields at the root need a structural counterpart', (c) => (root(c).anyOf = [{ properties: { other: { minLength: 1 } } }]), [
      `${R}.properties[other]: Required value: because it is defined in ${R}.anyOf[0].properties[other]`,
    ]],
    // Upstream's completeness check starts at the root's junctors only.
    ['junctors below the root are not checked for completeness', (c) => (prop(c, 'spec').anyOf = [{ properties: { other: { minLength: 1 } } }]), []],
    ['metadata in a junctor', (c) => (root(c).allOf = [{ properties: { metadata: {} } }]), [
      `${R}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
      `${R}.properties[metadata]: Required value: because it is defined in ${R}.allOf[0].properties[metadata]`,
    ]],
    ['x-kubernetes-validations in a junctor', (c) => (prop(c, 'spec').oneOf = [{ 'x-kubernetes-validations': [{ rule: 'true' }] }]), [`${R}.properties[spec].oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`]],
    ['invalid pattern', (c) => (prop(c, 'spec').properties!.cronSpec.pattern = '(a'), [expect.stringMatching(new RegExp(`^${R.replace(/\./g, '\\.')}\\.properties\\[spec\\]\\.properties\\[cronSpec\\]\\.pattern: Invalid value: "\\(a": must be a valid regular expression, but isn't: `)) as unknown as string]],
    ['list-type needs an array', (c) => (prop(c, 'spec').properties!.cronSpec['x-kubernetes-list-type'] = 'set'), [`${R}.properties[spec].properties[cronSpec].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`]],
    ['list-type values', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' }), [`${R}.properties[spec].properties[l].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`]],
    ['list-type map needs keys', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map' }), [`${R}.properties[spec].properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`]],
    ['list-map keys must be required or defaulted', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] }), [
      `${R}.properties[spec].properties[l].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ]],
    ['list-map keys must be item properties', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k', 'z'] }), [
      `${R}.properties[spec].properties[l].x-kubernetes-list-map-keys: Invalid value: ["k","z"]: entries must all be names of item properties`,
    ]],
    ['list-map keys must be scalars', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'object', required: ['k'], properties: { k: { type: 'object' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'] }), [
      `${R}.properties[spec].properties[l].items.properties[k].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
    ]],
    ['list-map-keys need list-type map', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['k'] }), [`${R}.properties[spec].properties[l].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`]],
    ['set items must be atomic', (c) => (prop(c, 'spec').properties!.l = { type: 'array', items: { type: 'object' }, 'x-kubernetes-list-type': 'set' }), [`${R}.properties[spec].properties[l].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`]],
    ['map-type needs an object', (c) => (prop(c, 'spec').properties!.cronSpec['x-kubernetes-map-type'] = 'atomic'), [`${R}.properties[spec].properties[cronSpec].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`]],
    ['embedded resources are objects', (c) => (prop(c, 'spec').properties!.e = { type: 'string', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }), [`${R}.properties[spec].properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`]],
    ['embedded resources need properties or preserve-unknown-fields', (c) => (prop(c, 'spec').properties!.e = { type: 'object', 'x-kubernetes-embedded-resource': true }), [`${R}.properties[spec].properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`]],
    ['int-or-string excludes preserve-unknown-fields', (c) => (prop(c, 'spec').properties!.p = { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }), [`${R}.properties[spec].properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`]],
    ['a default of the wrong type', (c) => (prop(c, 'spec').properties!.replicas.default = 'three'), [`${R}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`]],
    ['a default object with a wrong field', (c) => (prop(c, 'spec').default = { replicas: 1.5 }), [`${R}.properties[spec].default.replicas: Invalid value: "number": replicas in body must be of type integer: "number"`]],
    ['a good default', (c) => (prop(c, 'spec').properties!.replicas.default = 3), []],
    ['a rule is required', (c) => (prop(c, 'spec')['x-kubernetes-validations'] = [{ rule: ' ' }]), [`${R}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`]],
    ['a multi-line rule needs a message', (c) => (prop(c, 'spec')['x-kubernetes-validations'] = [{ rule: 'a ||\nb' }]), [`${R}.properties[spec].x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks`]],
    ['rule reasons', (c) => (prop(c, 'spec')['x-kubernetes-validations'] = [{ rule: 'true', reason: 'Nope' }]), [
      `${R}.properties[spec].x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ]],
    ['rule fieldPaths must resolve', (c) => (prop(c, 'spec')['x-kubernetes-validations'] = [{ rule: 'true', fieldPath: ".replicas" }, { rule: 'true', fieldPath: "['cronSpec']" }, { rule: 'true', fieldPath: '.nope' }, { rule: 'true', fieldPath: "['a\\q']" }]), [
      `${R}.properties[spec].x-kubernetes-validations[2].fieldPath: Invalid value: ".nope": fieldPath must be a valid path`,
      `${R}.properties[spec].x-kubernetes-validations[3].fieldPath: Invalid value: "['a\\\\q']": fieldPath must be a valid path`,
    ]],
    ['status subresource: only some keywords at the root', (c) => { c.spec!.versions![0].subresources = { status: {} }; root(c).minProperties = 1; }, [
      `${R}: Invalid value: ${JSON.stringify({ type: 'object', properties: specSchema().properties, minProperties: 1 })}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled`,
    ]],
    ['scale paths', (c) => (c.spec!.versions![0].subresources = { scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.spec.replicas', labelSelectorPath: '.metadata.labels' } }), [
      'spec.subresources.scale.specReplicasPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.replicas": should be a json path under .status',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
    ]],
    ['scale paths required', (c) => (c.spec!.versions![0].subresources = { scale: {} }), ['spec.subresources.scale.specReplicasPath: Required value', 'spec.subresources.scale.statusReplicasPath: Required value']],
    ['printer columns', (c) => (c.spec!.versions![0].additionalPrinterColumns = [{ name: 'R', type: 'int', format: 'hex', jsonPath: 'spec.replicas' }, { name: '', type: '', jsonPath: '' }]), [
      'spec.additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].format: Invalid value: "hex": must be one of byte,date,date-time,double,float,int32,int64,password',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
      'spec.additionalPrinterColumns[1].name: Required value',
      'spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[1].JSONPath: Required value',
    ]],
    ['selectable fields', (c) => (c.spec!.versions![0].selectableFields = [{ jsonPath: '.spec.cronSpec' }, { jsonPath: '.spec.cronSpec' }, { jsonPath: '.metadata.name' }, { jsonPath: '.spec' }, { jsonPath: '.spec.nope' }, { jsonPath: 'spec' }, {}]), [
      'spec.selectableFields[1].jsonPath: Duplicate value: ".spec.cronSpec"',
      'spec.selectableFields[2].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[3].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.selectableFields[4].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
      'spec.selectableFields[5].jsonPath: Invalid value: "spec": is an invalid path: expected [ or . but got: spec',
      'spec.selectableFields[6].jsonPath: Required value',
    ]],
    ['selectable fields: no array notation', (c) => (c.spec!.versions![0].selectableFields = [{ jsonPath: ".spec['cronSpec']" }, { jsonPath: '.' }]), [
      `spec.selectableFields[0].jsonPath: Invalid value: ".spec['cronSpec']": is an invalid path: array notation is not allowed`,
      'spec.selectableFields[1].jsonPath: Invalid value: ".": is an invalid path: unexpected end of JSON path',
    ]],
    ['selectable fields under metadata', (c) => { root(c).properties!.metadata = { type: 'object', properties: { name: { type: 'string' } } }; c.spec!.versions![0].selectableFields = [{ jsonPath: '.metadata.name' }]; }, [
      'spec.selectableFields[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata',
    ]],
    ['at most 8 selectable fields', (c) => {
      const props = prop(c, 'spec').properties!;
      for (let i = 0; i < 9; i++) props[`f${i}`] = { type: 'string' };
      c.spec!.versions![0].selectableFields = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
    }, ['spec.selectableFields: Too many: 9: must have at most 8 items']],
    ['conversion strategy values', (c) => (c.spec!.conversion = { strategy: 'Magic' }), ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']],
    ['None has no webhook', (c) => (c.spec!.conversion = { strategy: 'None', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } }), [
      'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
      'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
    ]],
    ['Webhook needs a client config and review versions', (c) => (c.spec!.conversion = { strategy: 'Webhook' }), [
      'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
      'spec.conversion.conversionReviewVersions: Required value',
    ]],
    ['Webhook review versions include v1 or v1beta1', (c) => (c.spec!.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://conv.example.com/x' }, conversionReviewVersions: ['v2', 'v2'] } }), [
      'spec.conversion.conversionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'spec.conversion.conversionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]],
    ['Webhook URLs', (c) => (c.spec!.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'http://u:p@host/p?q=1#f' }, conversionReviewVersions: ['v1'] } }), [
      `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      'spec.conversion.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "f": fragments are not permitted in the URL',
      'spec.conversion.webhookClientConfig.url: Invalid value: "q=1": query parameters are not permitted in the URL',
    ]],
    ['Webhook url xor service', (c) => (c.spec!.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://x', service: { namespace: 'n', name: 's' } }, conversionReviewVersions: ['v1'] } }), [
      'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
    ]],
    ['Webhook services', (c) => (c.spec!.conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: '', name: '', port: 0, path: 'a//B' } }, conversionReviewVersions: ['v1'] } }), [
      'spec.conversion.webhookClientConfig.service.name: Required value: service name is required',
      'spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required',
      'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      `spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": must start with a '/'`,
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
      'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
      `spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[2]: ${isDNS1123SubdomainMsg('B')}`,
    ]],
    ['preserveUnknownFields may not be set', (c) => (c.spec!.preserveUnknownFields = true), [
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]],
    ['stored versions must include the storage version', (c) => (c.status!.storedVersions = ['v0']), [
      'status.storedVersions: Invalid value: ["v0"]: must have the storage version v1',
      'status.storedVersions[0]: Invalid value: "v0": must appear in spec.versions',
    ]],
    ['stored versions must not be empty', (c) => (c.status!.storedVersions = []), ['status.storedVersions: Invalid value: []: must have at least one stored version']],
    ['protected groups need approval', (c) => { c.spec!.group = 'widgets.k8s.io'; c.metadata!.name = 'crontabs.widgets.k8s.io'; }, [
      `metadata.annotations[${approval}]: Required value: protected groups must have approval annotation "${approval}", see https://github.com/kubernetes/enhancements/pull/1111`,
    ]],
    ['an approval URL', (c) => { c.spec!.group = 'widgets.k8s.io'; c.metadata!.name = 'crontabs.widgets.k8s.io'; c.metadata!.annotations = { [approval]: 'https://github.com/kubernetes/kubernetes/pull/1' }; }, []],
    ['an invalid approval', (c) => { c.spec!.group = 'widgets.k8s.io'; c.metadata!.name = 'crontabs.widgets.k8s.io'; c.metadata!.annotations = { [approval]: 'yes' }; }, [
      `metadata.annotations[${approval}]: Invalid value: "yes": protected groups must have approval annotation "${approval}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
    ]],
  ];

  it.each(cases)('%s', (_name, mutate, expected) => {
    const crd = good();
    mutate(crd);
    expect(render(crd)).toEqual(expected);
  });

  it('two storage versions, duplicate names: the list is the value', () => {
    const crd = good();
    const v = crd.spec!.versions![0];
    crd.spec!.versions = [v, { ...structuredClone(v) }];
    const errs = validateCustomResourceDefinition(crd);
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['spec.versions', 'must contain unique version names'],
      ['spec.versions', 'must have exactly one version marked as storage version'],
      // Upstream's check consumes the stored version on the first match.
      ['status.storedVersions', 'must have the storage version v1'],
    ]);
    expect(errs[0].value).toBe(crd.spec!.versions);
  });

  it('different schemas per version are reported under spec.versions[i]', () => {
    const crd = good();
    const v2 = structuredClone(crd.spec!.versions![0]);
    Object.assign(v2, { name: 'v2', storage: false });
    delete v2.schema!.openAPIV3Schema!.properties!.spec.properties!.replicas.type;
    crd.spec!.versions!.push(v2);
    expect(render(crd)).toEqual([`spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields`]);
  });

  it('printer columns and subresources that differ per version are reported per version', () => {
    const crd = good();
    const v2 = structuredClone(crd.spec!.versions![0]);
    Object.assign(v2, { name: 'v2', storage: false, additionalPrinterColumns: [{ name: 'A', type: 'text', jsonPath: '.a' }], subresources: { scale: { specReplicasPath: '.spec.r', statusReplicasPath: '.x' } } });
    crd.spec!.versions!.push(v2);
    expect(render(crd)).toEqual([
      'spec.versions[1].subresources.scale.statusReplicasPath: Invalid value: ".x": should be a json path under .status',
      'spec.versions[1].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    ]);
  });

  it("groups under the product's own domain need approval too", () => {
    const crd = good();
    crd.spec!.group = `widgets.${productDomain}`;
    crd.metadata!.name = `crontabs.widgets.${productDomain}`;
    expect(validateCustomResourceDefinition(crd).map((e) => e.field)).toEqual([`metadata.annotations[${approval}]`]);
  });

  it('a schema nested deeper than any request can carry is walked without exhausting the stack', () => {
    const crd = good();
    let node = prop(crd, 'spec');
    for (let i = 0; i < 3000; i++) {
      const child: JSONSchemaProps = { type: 'object' };
      node.properties = { n: child };
      node = child;
    }
    expect(() => validateCustomResourceDefinition(crd)).not.toThrow();
  });

  it('status on one version only: the root rule applies to that version', () => {
    const crd = good();
    const v2 = structuredClone(crd.spec!.versions![0]);
    Object.assign(v2, { name: 'v2', storage: false, subresources: { status: {} } });
    v2.schema!.openAPIV3Schema!.type = 'object';
    v2.schema!.openAPIV3Schema!.maxProperties = 3;
    crd.spec!.versions!.push(v2);
    expect(render(crd)).toEqual([expect.stringMatching(/^spec\.versions\[1\]\.schema\.openAPIV3Schema: Invalid value: .*: only \[Description .*\] fields are allowed at the root of the schema if the status subresource is enabled$/)]);
  });
});


describe('ValidateCustomResourceDefinitionUpdate', () => {
  const established = (c: CRD): CRD => ({ ...c, status: { ...c.status, conditions: [{ type: 'Established', status: 'True' }] } });

  it('group and plural are immutable', () => {
    const old = good();
    const crd = good();
    crd.spec!.group = 'other.example.com';
    crd.spec!.names!.plural = 'crons';
    crd.metadata!.name = 'crons.other.example.com';
    expect(validateCustomResourceDefinitionUpdate(crd, old).map(renderFieldError)).toEqual([
      'spec.group: Invalid value: "other.example.com": field is immutable',
      'spec.names.plural: Invalid value: "crons": field is immutable',
    ]);
  });

  it('scope and kind are immutable once Established, free before', () => {
    const crd = good();
    crd.spec!.scope = 'Cluster';
    crd.spec!.names!.kind = 'Cron';
    crd.spec!.names!.listKind = 'CronList';
    expect(validateCustomResourceDefinitionUpdate(crd, good())).toEqual([]);
    expect(validateCustomResourceDefinitionUpdate(established(crd), established(good())).map(renderFieldError)).toEqual([
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Cron": field is immutable',
    ]);
  });

  it('a version still in storedVersions cannot be removed', () => {
    const old = good();
    const v2 = { ...structuredClone(old.spec!.versions![0]), name: 'v2', storage: false };
    old.spec!.versions!.push(v2);
    old.status!.storedVersions = ['v1', 'v2'];
    const crd = structuredClone(old);
    crd.spec!.versions!.pop();
    expect(validateCustomResourceDefinitionUpdate(crd, old).map(renderFieldError)).toEqual(['status.storedVersions[1]: Invalid value: "v2": must appear in spec.versions']);
  });

  it('rules the stored object already breaks are not tightened (an unknown type kept)', () => {
    const old = good();
    prop(old, 'spec').properties!.replicas.type = 'int';
    const crd = structuredClone(old);
    crd.metadata!.labels = { a: 'b' };
    expect(validateCustomResourceDefinitionUpdate(crd, old)).toEqual([]);
    expect(render(crd)).toEqual([`${R}.properties[spec].properties[replicas].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`]);
  });

  it('structural schemas are required on update too (v1 prunes)', () => {
    const old = good();
    delete prop(old, 'spec').properties!.replicas.type;
    expect(validateCustomResourceDefinitionUpdate(structuredClone(old), old).map(renderFieldError)).toEqual([
      `${R}.properties[spec].properties[replicas].type: Required value: must not be empty for specified object fields`,
    ]);
  });

  it('an unchanged approval state is not re-checked', () => {
    const old = good();
    old.spec!.group = 'widgets.k8s.io';
    old.metadata!.name = 'crontabs.widgets.k8s.io';
    const crd = structuredClone(old);
    expect(validateCustomResourceDefinitionUpdate(crd, old)).toEqual([]);
  });
});
