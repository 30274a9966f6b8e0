// Public surface of the serviceaccount controller.
export { ServiceAccountsController, serviceAccountsControllerName } from './serviceAccountsController';
export type { ServiceAccountCreator, ServiceAccountsControllerOptions } from './serviceAccountsController';
