// The CSR controllers log through the controllers' shared interface (lib/controllers/controller.ts).
export { silentLog } from '../controller';
export type { ControllerLog, LogFn } from '../controller';
