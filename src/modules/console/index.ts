/**
 * The console module's front door: the console's API (registered as one plugin), the company's
 * console users, and the owners' mail webhooks is given through the context.
 */
export { listUsers } from './console.repo.js';
export { registerConsole } from './console.routes.js';
export { consoleOwnerMail } from './owner-mail.service.js';
export { inviteUser } from './users.service.js';
