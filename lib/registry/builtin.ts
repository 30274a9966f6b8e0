// The served resources: one registration line each (a schema in lib/api, a strategy here).
import type { Strategy } from './strategy';
import {
  validatingAdmissionPolicyBindingStrategy,
  validatingAdmissionPolicyBindingV1beta1Strategy,
  validatingAdmissionPolicyStrategy,
  validatingAdmissionPolicyV1beta1Strategy,
} from './admissionregistration';
import { certificateSigningRequestStrategy } from './certificatesigningrequests';
import { configMapStrategy } from './configmaps';
import { customResourceDefinitionStrategy } from './customresourcedefinitions';
import { leaseStrategy } from './leases';
import { namespaceStrategy } from './namespaces';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategy } from './rbac';
import { serviceAccountStrategy } from './serviceaccounts';

export const builtinStrategies: readonly Strategy[] = [
  namespaceStrategy,
  serviceAccountStrategy,
  configMapStrategy,
  certificateSigningRequestStrategy,
  leaseStrategy,
  roleStrategy,
  clusterRoleStrategy,
  roleBindingStrategy,
  clusterRoleBindingStrategy,
  validatingAdmissionPolicyStrategy,
  validatingAdmissionPolicyBindingStrategy,
  customResourceDefinitionStrategy,
  // v1beta1: the same objects (one storage location), off by default.
  validatingAdmissionPolicyV1beta1Strategy,
  validatingAdmissionPolicyBindingV1beta1Strategy,
];
