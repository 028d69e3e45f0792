/**
 * The request log's front door: the recorder the app installs, its routes and answer shapes (the
 * console reuses them), the reads and purge, and how long a request is kept.
 */
export { installRequestLog, type RequestLogRecorder } from './request-log.recorder.js';
export { busiestKeysOf, callsPerMinute } from './request-log.repo.js';
export { RequestLogEntry, RequestLogQuery, registerRequestLogRoutes } from './request-log.routes.js';
export {
  getRequestLogEntry,
  listRequestLog,
  listRequestLogKeys,
  purgeOldRequests,
  REQUEST_LOG_RETENTION_MS,
} from './request-log.service.js';
