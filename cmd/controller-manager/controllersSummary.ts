// The opening of `svc-controller-manager --help`: the controllers --controllers knows, each with
// what it does. The record is keyed by ControllerName, so a controller added to knownControllers
// does not type-check until it says what it does here.
import { disabledByDefaultControllers, knownControllers, type ControllerName } from './options';

/** What each controller does, in a user's words. */
export const controllerPurposes: Readonly<Record<ControllerName, string>> = {
  csrsigning: 'issues certificates for approved CSRs of the well-known signers',
  csrapproving: 'auto-approves node client CSRs whose requester holds nodeclient or selfnodeclient',
  csrcleaner: 'deletes decided, stale and expired CSRs',
  serviceaccount: "gives every namespace a 'default' ServiceAccount",
  namespace: 'empties namespaces being deleted',
};

/** One line: every known controller with its purpose; those off by default say so. */
export function controllersSummary(program: string): string {
  const described = knownControllers.map((name) => {
    const off = disabledByDefaultControllers.includes(name) ? ', off by default' : '';
    return `${name} (${controllerPurposes[name]}${off})`;
  });
  return `${program} runs these controllers against an apiserver: ${described.join(', ')}.`;
}
