import { controllerPurposes, controllersSummary } from './controllersSummary';
import { knownControllers } from './options';

test('the summary names every controller --controllers knows, in its order, each with what it does', () => {
  const line = controllersSummary('svc-controller-manager');
  expect(line).toBe(
    'svc-controller-manager runs these controllers against an apiserver: ' + knownControllers.map((n) => `${n} (${controllerPurposes[n]})`).join(', ') + '.',
  );
  expect(line).not.toContain('\n');
  for (const name of knownControllers) expect(controllerPurposes[name]).toMatch(/^[a-z]/);
});
