/**
 * The API keys module's front door: minting, rotation, revocation and IP allowlists of seller
 * keys, the principal a bearer token loads, keys' last use, and the shapes the console reuses.
 */
export { markKeysUsed } from './api-keys.repo.js';
export { KeyItem, registerApiKeyRoutes, SecretOnce } from './api-keys.routes.js';
export { loadPrincipal, mintKey, normalizeAllowedIps } from './api-keys.service.js';
export { keyView, listKeys, replaceAllowedIps, revokeKey, rotateKey } from './key-management.service.js';
