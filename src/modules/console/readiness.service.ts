import type { AppContext } from '../../context.js';
import { listKeys } from '../api-keys/index.js';
import type { integrationStatus } from '../identity/index.js';
import { type ConsoleSession, principalOfSession } from './sessions.service.js';

type Status = Awaited<ReturnType<typeof integrationStatus>>;
type ItemState = 'done' | 'todo' | 'waiting';

export interface ChecklistItem {
  id: string;
  title: string;
  state: ItemState;
  detail: string;
  /** The console page that completes the item, or null when only the platform can. */
  href: string | null;
}

/** "1 endpoint", "2 endpoints": the console's detail lines are English. */
const counted = (n: number, noun: string, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;
const check = (status: Status, name: string) => status.checks.find((c) => c.check === name);
const state = (ok: boolean, waiting = false): ItemState => (ok ? 'done' : waiting ? 'waiting' : 'todo');

/**
 * The readiness checklist of GET /integration/status for the session's environment, plus what the
 * console knows from the key services: a sandbox key, production access, an allowlisted
 * production key. Every fact comes from the services the API uses.
 */
export async function readinessChecklist(ctx: AppContext, session: ConsoleSession, status: Status) {
  const sandboxKeys = await listKeys(ctx, { ...principalOfSession(session), environment: 'sandbox' });
  const productionKeys = session.productionAccess
    ? await listKeys(ctx, { ...principalOfSession(session), environment: 'production' })
    : [];
  const webhooks = check(status, 'webhooks');
  const items: ChecklistItem[] = [
    {
      id: 'footprint',
      title: 'Declare where you sell',
      state: state(status.footprint.complete),
      detail: status.footprint.complete
        ? `${counted(status.footprint.countries.length, 'country', 'countries')}, ${status.footprint.currencies.join(', ')}`
        : 'At least one country and one currency, in the footprint editor of Settings.',
      href: '/console/settings#footprint',
    },
    {
      id: 'agreement',
      title: 'An agreement in force',
      state: state(status.hasActiveBma, true),
      detail: status.hasActiveBma
        ? 'A business agreement is in force.'
        : 'Your account manager sets this up.',
      href: null,
    },
    {
      id: 'sandbox_key',
      title: 'Create a sandbox key',
      state: state(sandboxKeys.length > 0),
      detail:
        sandboxKeys.length > 0
          ? `${counted(sandboxKeys.length, 'live sandbox key')}.`
          : 'Keys are made on the API keys page.',
      href: '/console/keys',
    },
    {
      id: 'first_order',
      title: `First ${status.environment} order`,
      state: state(status.firstOrderCompleted),
      detail: status.firstOrderCompleted
        ? `Order ${status.firstOrderReference ?? ''} completed.`
        : 'Place an order with a key of this environment.',
      href: '/console/keys',
    },
    {
      id: 'webhooks',
      title: 'A webhook endpoint receiving',
      state: state(webhooks?.status === 'ok'),
      detail:
        webhooks?.status === 'ok'
          ? `${counted(status.webhooks.activeCount, 'endpoint')} active.`
          : webhooks?.status === 'action_required'
            ? 'An endpoint was disabled after repeated failures.'
            : 'Optional: events can also be polled from GET /events.',
      href: '/console/webhooks',
    },
    {
      id: 'production_access',
      title: 'Production access',
      state: state(session.productionAccess, true),
      detail: session.productionAccess ? 'Approved.' : 'Granted by the platform after review.',
      href: null,
    },
    {
      id: 'production_key',
      title: 'An allowlisted production key',
      state: state(
        productionKeys.some((key) => (key.allowedIps ?? []).length > 0),
        !session.productionAccess,
      ),
      detail: session.productionAccess
        ? 'Production keys always carry an IP allowlist.'
        : 'Available once production access is approved.',
      href: session.productionAccess ? '/console/keys' : null,
    },
  ];
  return { environment: status.environment, ready: status.ready, blockers: status.blockers, items };
}
