export { type ClientOptions, createSdapiClient, type DataOf, type SdapiClient } from './client.js';
export { ApiError, type ApiErrorBody } from './errors.js';
export {
  CONTRACT_DATES,
  type ContractDate,
  ERROR_CODES,
  type ErrorCode,
  IDEMPOTENT_OPERATIONS,
} from './generated.js';
export type { ItemOf, ListPath } from './paginate.js';
export type { RetryOptions } from './retry.js';
export type { components, operations, paths } from './schema.js';
export {
  type VerifyOptions,
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.js';
