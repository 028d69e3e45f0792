/**
 * The notices module's front door: the console's in-app notices, made from published events by
 * a job and from a paused contract by partners, and read and marked by the console.
 */
export {
  collectNotices,
  listNotices,
  markAllNoticesRead,
  markNotice,
  noticeContractPaused,
} from './notices.service.js';
export type { ConsoleNoticeCursorTable, ConsoleNoticesTable } from './notices.table.js';
