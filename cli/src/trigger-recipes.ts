import { CliError } from './errors.js';
import {
  ALWAYS_SKU as ALWAYS,
  HOT_DROP_SKU as HOT_DROP,
  freshReference as reference,
  usLine,
  usWebOrder,
} from './sandbox-sale.js';
import { type Session, withRequestId } from './session.js';

/** One API call a trigger made, as it prints it. */
export interface Step {
  call: string;
  requestId: string;
  result: string;
}

export interface Recipe {
  /** What it does, for `trigger --list`. */
  how: string;
  run(s: Session, options: { endpoint?: string }): Promise<Step[]>;
}

async function quote(s: Session, skuCode: string, steps: Step[]): Promise<number> {
  const body = { skuCode, quantity: 1, countryCode: 'US', orderReference: reference('quote') };
  const r = await withRequestId(s.baseUrl, s.client.raw.POST('/api/seller/v1/orders/preview', { body }));
  const cents = r.data.data.unitPriceCents ?? 0;
  steps.push({
    call: 'POST /orders/preview',
    requestId: r.requestId,
    result: `${skuCode} at ${cents} cents`,
  });
  return cents;
}

async function order(s: Session, steps: Step[]) {
  const cents = await quote(s, ALWAYS, steps);
  const body = usWebOrder(ALWAYS, reference('order'), cents);
  const r = await withRequestId(s.baseUrl, s.client.raw.POST('/api/seller/v1/orders', { body }));
  const placed = r.data.data as { orderReference: string; keyIds: string[] };
  steps.push({
    call: 'POST /orders',
    requestId: r.requestId,
    result: `order ${placed.orderReference} (${ALWAYS})`,
  });
  return placed;
}

async function reserve(s: Session, steps: Step[]) {
  const cents = await quote(s, HOT_DROP, steps);
  const body = usLine(HOT_DROP, reference('reserve'), cents);
  const r = await withRequestId(s.baseUrl, s.client.raw.POST('/api/seller/v1/orders/reserve', { body }));
  const reservation = r.data.data as { reservationId: string; orderReference: string };
  steps.push({
    call: 'POST /orders/reserve',
    requestId: r.requestId,
    result: `reservation ${reservation.reservationId} (${HOT_DROP})`,
  });
  return reservation;
}

async function firstEndpoint(s: Session, steps: Step[]): Promise<string> {
  const r = await withRequestId(s.baseUrl, s.client.raw.GET('/api/seller/v1/webhooks'));
  const id = (r.data.data as { id: string }[])[0]?.id;
  steps.push({
    call: 'GET /webhooks',
    requestId: r.requestId,
    result: id ? `endpoint ${id}` : 'no endpoint',
  });
  if (!id)
    throw new CliError(
      'test.ping goes to a webhook endpoint and this key has none',
      'create one (POST /webhooks) or pass --endpoint ID',
    );
  return id;
}

/** The events `trigger` can cause, each by the real sandbox calls that emit it. */
export const RECIPES: Record<string, Recipe> = {
  'order.fulfilled': {
    how: `previews and orders one key of ${ALWAYS}`,
    run: async (s) => {
      const steps: Step[] = [];
      await order(s, steps);
      return steps;
    },
  },
  'keys.pulled': {
    how: `pulls one key of ${ALWAYS} (POST /keys/pull)`,
    run: async (s) => {
      const body = { skuCode: ALWAYS, quantity: 1, countryCode: 'US', orderReference: reference('pull') };
      const r = await withRequestId(s.baseUrl, s.client.raw.POST('/api/seller/v1/keys/pull', { body }));
      return [
        {
          call: 'POST /keys/pull',
          requestId: r.requestId,
          result: `pull ${body.orderReference} (${ALWAYS})`,
        },
      ];
    },
  },
  'refund.completed': {
    how: `orders one key of ${ALWAYS}, then refunds it`,
    run: async (s) => {
      const steps: Step[] = [];
      const placed = await order(s, steps);
      const body = {
        type: 'refund' as const,
        refundReference: reference('refund'),
        keyIds: placed.keyIds,
        reason: 'sdapi-seller trigger',
      };
      const r = await withRequestId(s.baseUrl, s.client.raw.POST('/api/seller/v1/refunds', { body }));
      steps.push({
        call: 'POST /refunds',
        requestId: r.requestId,
        result: `refund ${(r.data.data as { refundId: string }).refundId}`,
      });
      return steps;
    },
  },
  'order.reserved': {
    how: `reserves one key of the hot-drop SKU ${HOT_DROP}`,
    run: async (s) => {
      const steps: Step[] = [];
      await reserve(s, steps);
      return steps;
    },
  },
  'order.returned': {
    how: `reserves one key of ${HOT_DROP}, then cancels the reservation`,
    run: async (s) => {
      const steps: Step[] = [];
      const reservation = await reserve(s, steps);
      const body = { reservationId: reservation.reservationId };
      const r = await withRequestId(s.baseUrl, s.client.raw.POST('/api/seller/v1/orders/cancel', { body }));
      steps.push({
        call: 'POST /orders/cancel',
        requestId: r.requestId,
        result: `released ${reservation.reservationId}`,
      });
      return steps;
    },
  },
  'test.ping': {
    how: 'pings a webhook endpoint (--endpoint ID, else your first)',
    run: async (s, { endpoint }) => {
      const steps: Step[] = [];
      const id = endpoint ?? (await firstEndpoint(s, steps));
      const call = s.client.raw.POST('/api/seller/v1/webhooks/{id}/test', { params: { path: { id } } });
      const r = await withRequestId(s.baseUrl, call);
      steps.push({
        call: `POST /webhooks/${id}/test`,
        requestId: r.requestId,
        result: `event ${r.data.data.eventId}`,
      });
      return steps;
    },
  },
};
