/**
 * The audit module's front door: the company's audit log (who changed what, through the
 * console, the API, the CLI or the operator), written inside the change it records.
 */
export {
  type AuditBy,
  auditActorOf,
  listAudit,
  OPERATOR,
  recordAudit,
} from './audit.service.js';
export type { ConsoleAuditTable } from './audit.table.js';
