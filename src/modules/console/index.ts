/**
 * The console module's front door: the console's API (registered as one plugin) and the
 * company's console users (the CLI's invite, the first run's check for users).
 */
export { listUsers } from './console.repo.js';
export { registerConsole } from './console.routes.js';
export { inviteUser } from './users.service.js';
