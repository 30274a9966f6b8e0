export { CelActivation, CelEnvironment, CelProgram } from './environment';
export type { CelVariable, CompileResult, EvalOptions, EvalResult } from './environment';
export { CostBudget, CostLimitExceeded, costLimitExceededMessage, perCallLimit, runtimeCostBudget, unitCost } from './cost';
export { escapeName, unescapeName } from './escaping';
export type { CelAuthorizer, CelAuthorizerDecision, CelPathCheck, CelResourceCheck } from './library/authorizer';
export { compilationFailedDetail, policyEnvironment } from './policyEnvironment';
export { AuthorizerValue } from './library/authorizerValues';
export { objectField } from './schemaField';
