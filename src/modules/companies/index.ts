/**
 * The companies module's front door: sellers and publishers as records (create, read, edit,
 * the hot-path facts and their cache) and each seller's declared footprint of countries and
 * currencies, with the checks an order makes against it.
 */
export { companyNames, findCompany, findFirstSellerNamed } from './companies.repo.js';
export {
  type Company,
  companyFacts,
  companyView,
  createCompany,
  type Footprint,
  forgetCompanyFacts,
  getCompany,
  getFootprint,
  isEmptyInstallation,
  replaceFootprint,
  toCompany,
  updateCompany,
} from './companies.service.js';
export type { CompanyKind } from './companies.table.js';
export { footprintChecks, footprintInForce } from './footprint.js';
