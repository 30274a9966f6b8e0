// The variables of admission policy expressions (upstream plugin/cel OptionalVariableDeclarations):
// object, oldObject, request, namespaceObject, variables and authorizer always; params only when
// the policy has a paramKind, so `params` in a policy without one fails to compile as upstream.
// Values are not escaped: upstream hands policies unstructured maps (object.metadata.namespace).
// Shared by write-time validation (lib/registry) and evaluation (lib/admission).
import { CelEnvironment } from './environment';

const base = ['object', 'oldObject', 'request', 'namespaceObject', 'variables', 'authorizer'];

let withParams: CelEnvironment | undefined;
let withoutParams: CelEnvironment | undefined;

const declare = (name: string) => ({ name, unescaped: true });

export function policyEnvironment(hasParams: boolean): CelEnvironment {
  if (hasParams) return (withParams ??= new CelEnvironment([...base, 'params'].map(declare)));
  return (withoutParams ??= new CelEnvironment(base.map(declare)));
}
