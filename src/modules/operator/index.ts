/**
 * The operator module's front door: its routes (on the operator listener only), the shared test
 * clock's store, and the company's answer shape, which the console shows as well.
 */

export { CompanySchema } from './companies.admin.js';
export { registerOperatorRoutes } from './operator.routes.js';
export { testClockStore } from './test-clock.repo.js';
