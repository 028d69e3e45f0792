/**
 * The identity module's front door: what a key learns of itself (`whoami`, integration status,
 * the footprint routes, `/health`), and the footprint body the console and operator reuse.
 */
export { registerIdentityRoutes } from './identity.routes.js';
export { FootprintBody } from './identity.schemas.js';
export { integrationStatus } from './integration-status.service.js';
