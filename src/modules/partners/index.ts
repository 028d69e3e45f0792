/**
 * The partners module's front door: connections between sellers and publishers, agreements and
 * their amendments, the terms a seller sells under, and the partner routes.
 */
export { updateConnection } from './partners.repo.js';
export { PartnerSchema, registerPartnerRoutes } from './partners.routes.js';
export {
  type AgreementInput,
  acceptAmendment,
  addAgreement,
  connect,
  proposeAmendment,
  requireConnection,
  setAgreementStatus,
  supersedeAgreement,
} from './partners.service.js';
export type { CatalogShareMode } from './partners.table.js';
export { inForceApiAgreement, listPartners, sellerTerms, whoamiTerms } from './seller-terms.service.js';
