/**
 * The geo-attest module's front door: buyer geo attestations, their routes, the country an order
 * may rely on, and the sweep that forgets captured addresses.
 */
export { registerGeoAttestRoutes } from './geo-attest.routes.js';
export { attestedCountry, clearCapturedAddresses, spendAttestation } from './geo-attest.service.js';
