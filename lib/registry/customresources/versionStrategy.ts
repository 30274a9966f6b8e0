// The strategy serving one version of a CRD: its structural schema converted into the schema
// model (schemaFromProps), and everything else read from it or from the version — validation,
// defaults, Table columns, selectable fields, /status. Built when the CRD controller installs the
// version, and again whenever the CRD changes.
import { type CustomResourceDefinition } from '../../api/apiextensions';
import type { ApiObject } from '../../api';
import type { FieldError } from '../../machinery/fieldErrors';
import { applySchemaDefaults } from '../../machinery/schemaDefaults';
import { validateEmbeddedResources } from '../../machinery/validation/embeddedResources';
import { validateSchemaListTypes } from '../../machinery/validation/schemaListTypes';
import { validateSchemaValues } from '../../machinery/validation/schemaValues';
import { printerColumns } from './printerColumns';
import { customResourceInfo } from './resourceInfo';
import { schemaFromProps } from './schemaFromProps';
import { selectableFieldValues } from './selectableFields';
import { CustomResourceStrategy } from './strategy';

const underStatus = (e: FieldError): boolean => e.field === 'status' || e.field.startsWith('status.') || e.field.startsWith('status[');

export function customResourceStrategy(crd: CustomResourceDefinition, version: string, opts: { terminating: boolean }): CustomResourceStrategy {
  const v = crd.spec?.versions?.find((x) => x.name === version);
  const kind = crd.status?.acceptedNames?.kind ?? crd.spec?.names?.kind ?? '';
  const schema = schemaFromProps(v?.schema?.openAPIV3Schema, { group: crd.spec?.group ?? '', version, kind });
  const info = customResourceInfo(crd, version, schema);
  const validateSchema = (obj: ApiObject): FieldError[] => [...validateSchemaValues(schema, obj), ...validateEmbeddedResources(schema, obj), ...validateSchemaListTypes(schema, obj)];
  const scale = v?.subresources?.scale;
  return new CustomResourceStrategy({
    info,
    hasStatus: !!v?.subresources?.status,
    scale: scale ? { specReplicasPath: scale.specReplicasPath ?? '', statusReplicasPath: scale.statusReplicasPath ?? '', labelSelectorPath: scale.labelSelectorPath } : undefined,
    terminating: opts.terminating,
    validateSchema,
    // Through /status only status is validated (upstream's status strategy).
    validateStatus: (obj) => validateSchema(obj).filter(underStatus),
    applyDefaults: (obj) => applySchemaDefaults(schema, obj),
    tableColumns: printerColumns(v?.additionalPrinterColumns ?? []),
    selectableFields: selectableFieldValues((v?.selectableFields ?? []).map((f) => f.jsonPath ?? ''), info.namespaced),
  });
}
