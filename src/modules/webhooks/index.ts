/**
 * The webhooks module's front door: endpoints and their attempts, redelivery and replay, the
 * delivery jobs and metrics, event retention, and the answer shapes the console reuses.
 */
export type { EndpointDisabledNotice, OwnerMail } from './endpoint-disabled-notice.js';
export { type WebhookEndpointHealth, webhookEndpointHealth } from './endpoint-health.service.js';
export { eventDeliveries } from './event-deliveries.service.js';
export { listDeliveries } from './operator.service.js';
export { lastPublication } from './publication.repo.js';
export { previewReplay, redeliverEvent, replayFailedSince } from './redelivery.service.js';
export {
  EVENT_RETENTION_MS,
  eventDayMayGo,
  purgeExpiredEvents,
  trimAttemptBodies,
} from './retention.service.js';
export { registerWebhookMetrics } from './webhook-metrics.js';
export { registerWebhookJobs } from './webhooks.jobs.js';
export {
  Attempt,
  Created,
  Endpoint,
  Replayed,
  ReplayPreview,
  Requeued,
  registerWebhookRoutes,
} from './webhooks.routes.js';
export {
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  listAttempts,
  listEndpoints,
  pauseEndpoint,
  tenantOf,
  testEndpoint,
  updateEndpoint,
} from './webhooks.service.js';
