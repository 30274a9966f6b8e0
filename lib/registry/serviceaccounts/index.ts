// Public surface of the ServiceAccount registry.
export { serviceAccountStrategy, serviceAccountWarnings } from './strategy';
