import type { ValidatingAdmissionPolicy } from '../../api';
import { CelActivation, CostBudget, costLimitExceededMessage } from '../../cel';
import { compilePolicy } from './compiled';
import { evaluatePolicy } from './evaluate';

function policyWith(variables: { name: string; expression: string }[], validations: { expression: string }[]): ValidatingAdmissionPolicy {
  return { metadata: { name: 'p', resourceVersion: '1' }, spec: { failurePolicy: 'Fail', variables, validations } } as ValidatingAdmissionPolicy;
}

const object = { metadata: { name: 'n'.repeat(253) } };
const evaluate = (p: ValidatingAdmissionPolicy, budget = new CostBudget()) =>
  evaluatePolicy(compilePolicy(p), CelActivation.of({ object }, { escape: false }), budget);

describe('composited variables (upstream plugin/cel/composition.go)', () => {
  it('twenty variables that each double the name run out of cost, with upstream\'s message', () => {
    // Without size-based cost the last would be 253·2^20 characters; upstream stops at v15.
    const variables = [{ name: 'v0', expression: 'object.metadata.name + object.metadata.name' }];
    for (let i = 1; i < 20; i++) variables.push({ name: `v${i}`, expression: `variables.v${i - 1} + variables.v${i - 1}` });
    const budget = new CostBudget();
    const r = evaluate(policyWith(variables, [{ expression: 'variables.v19.size() > 0' }]), budget);
    const chain = Array.from({ length: 5 }, (_, k) => `composited variable "v${19 - k}" fails to evaluate: `).join('');
    expect(r.decisions).toEqual([
      { action: 'deny', error: true, index: 0, message: `expression 'variables.v19.size() > 0' resulted in error: ${chain}${costLimitExceededMessage}` },
    ]);
    // v0…v14 built (the largest 506·2^14 characters), v15 stopped at the per-call limit.
    expect(budget.remaining).toBeGreaterThan(0);
    expect(budget.remaining).toBeLessThan(10_000_000 - 1_000_000);
  });

  it('evaluates a variable once, when first read, and never one that is not read', () => {
    const variables = [
      { name: 'used', expression: 'object.metadata.name.size()' },
      { name: 'unused', expression: "object.metadata.name + 'x' == ''" },
      { name: 'failing', expression: 'object.metadata.missing' },
    ];
    const read = evaluate(policyWith(variables, [{ expression: 'variables.used > 0 && variables.used < 1000' }]));
    expect(read.decisions).toEqual([{ action: 'admit' }]);
    // A failing variable fails only the expressions that read it.
    const failing = evaluate(policyWith(variables, [{ expression: 'variables.used > 0' }, { expression: 'variables.failing == 1' }]));
    expect(failing.decisions[0]).toEqual({ action: 'admit' });
    expect(failing.decisions[1]).toMatchObject({ action: 'deny', error: true, message: expect.stringMatching(/^expression 'variables.failing == 1' resulted in error: composited variable "failing" fails to evaluate: /) });
  });

  it('takes a variable\'s cost from the request budget once', () => {
    const variables = [{ name: 'big', expression: 'object.metadata.name + object.metadata.name' }];
    const once = new CostBudget();
    evaluate(policyWith(variables, [{ expression: 'variables.big.size() > 0' }]), once);
    const twice = new CostBudget();
    evaluate(policyWith(variables, [{ expression: 'variables.big.size() > 0' }, { expression: 'variables.big.size() > 0' }]), twice);
    const variableCost = Math.ceil(506 * 0.1) + 6; // object.metadata.name twice, and the concatenation
    const expressionCost = 1 + 1 + 1 + 1; // variables, .big, size(), >
    expect(10_000_000 - once.remaining).toBe(variableCost + expressionCost);
    expect(10_000_000 - twice.remaining).toBe(variableCost + 2 * expressionCost);
  });
});
