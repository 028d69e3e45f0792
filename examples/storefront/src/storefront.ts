import { createSdapiClient } from '@sdapi/sdk';
import { FakePayments } from './payments.js';
import { startReceiver } from './receiver.js';
import { Shop, SimulatedCrash } from './shop.js';

export interface StorefrontOptions {
  baseUrl: string;
  /** A sandbox key with seller:orders:manage and seller:webhooks:write (the demo key has both). */
  apiKey: string;
  /** Where the shop keeps its checkout journal. */
  journalFile: string;
  log?: (line: string) => void;
}

const API = '/api/seller/v1';
const SKU = 'SANDBOX-ALWAYS-001';

/**
 * The whole integration, start to finish: receive webhooks, browse, sell one key (preview, hold,
 * fake payment, order), see order.fulfilled arrive signed, then crash mid-order and recover.
 */
export async function runStorefront(options: StorefrontOptions) {
  const log = options.log ?? (() => {});
  const api = createSdapiClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  const receiver = await startReceiver();
  const endpoint = await api.POST(`${API}/webhooks`, {
    body: { url: receiver.url, eventTypes: ['order.fulfilled'], description: 'sample storefront' },
  });
  receiver.useSecret(endpoint.data.secret);
  log(`webhooks: receiving order.fulfilled at ${receiver.url}`);
  const payments = new FakePayments();
  try {
    const shop = new Shop(api, payments, options.journalFile, log);
    const product = await shop.browse('Sandbox Always');
    const skus = product.skus ?? [];
    if (!skus.some((s) => s.code === SKU)) throw new Error(`${SKU} is not sold in this catalog`);
    log(`browse: ${product.name}, SKUs ${skus.map((s) => s.code).join(', ')}`);

    const checkout = { skuCode: SKU, quantity: 1, countryCode: 'US', currencyCode: 'USD', retailMinor: 2499 };
    const sale = await shop.sell(checkout);
    const fulfilled = await receiver.waitFor(
      (e) => e.eventType === 'order.fulfilled' && e.data.orderReference === sale.orderReference,
    );
    log(
      `webhook: ${fulfilled.eventType} ${fulfilled.eventId} for ${sale.orderReference}, signature verified`,
    );

    // The process dies after the API sold the keys and before the buyer got them.
    const crashed = await shop.sell({ ...checkout, quantity: 2 }, { crashAfterSend: true }).then(
      () => {
        throw new Error('the simulated crash did not happen');
      },
      (error: unknown) => {
        if (!(error instanceof SimulatedCrash)) throw error;
        log(`crash: ${error.message}`);
      },
    );
    const restarted = new Shop(api, payments, options.journalFile, log);
    const recovered = await restarted.recover();
    return { sale, fulfilled, crashed, recovered, payments: [...payments.charges.values()] };
  } finally {
    await api.DELETE(`${API}/webhooks/{id}`, { params: { path: { id: endpoint.data.id } } });
    await receiver.close();
  }
}
