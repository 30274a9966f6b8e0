// The served resources: one registration line each (a schema in lib/api, a strategy here).
import type { Strategy } from './strategy';
import { certificateSigningRequestStrategy } from './certificatesigningrequests';
import { namespaceStrategy } from './namespaces';
import { serviceAccountStrategy } from './serviceaccounts';

export const builtinStrategies: readonly Strategy[] = [
  namespaceStrategy,
  serviceAccountStrategy,
  certificateSigningRequestStrategy,
];
