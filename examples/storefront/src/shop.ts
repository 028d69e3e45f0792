import { randomUUID } from 'node:crypto';
import { ApiError, type SdapiClient } from '@sdapi/sdk';
import { Journal } from './journal.js';
import type { FakePayments } from './payments.js';

/** The buyer's checkout: one SKU, a quantity, where they buy from and what our shop charges. */
export interface Checkout {
  skuCode: string;
  quantity: number;
  countryCode: string;
  currencyCode: string;
  /** Our retail price per key, in minor units, tax included. */
  retailMinor: number;
}

export class SimulatedCrash extends Error {
  override readonly name = 'SimulatedCrash';
}

const API = '/api/seller/v1';
type Log = (line: string) => void;

/** A small shop selling game keys through the API: every step is one SDK call. */
export class Shop {
  private readonly journal: Journal;

  constructor(
    private readonly api: SdapiClient,
    private readonly payments: FakePayments,
    journalFile: string,
    private readonly log: Log = () => {},
  ) {
    this.journal = new Journal(journalFile);
  }

  /** Browse: every product the catalog shows, page by page, then one product's SKUs. */
  async browse(productName: string) {
    const names: string[] = [];
    let productId: string | undefined;
    for await (const product of this.api.paginate(`${API}/products`, { params: { query: { limit: 20 } } })) {
      names.push(product.name);
      if (product.name === productName) productId ??= product.id;
    }
    this.log(`browse: ${names.length} products in the catalog`);
    if (!productId) throw new Error(`${productName} is not in the catalog`);
    const product = await this.api.GET(`${API}/products/{productId}`, {
      params: { path: { productId } },
    });
    return product.data;
  }

  /** Sell one checkout: preview, hold, charge, order, capture; the journal survives a crash. */
  async sell(checkout: Checkout, options: { crashAfterSend?: boolean } = {}) {
    const orderReference = `shop-${randomUUID()}`;
    const integrationOrderContext = {
      salesCountryCode: checkout.countryCode,
      currencyCode: checkout.currencyCode,
      salesTaxRatePercent: 0,
      salesPriceGrossMinor: checkout.retailMinor,
      salesChannel: 'web',
    };
    const line = {
      skuCode: checkout.skuCode,
      quantity: checkout.quantity,
      countryCode: checkout.countryCode,
    };

    const preview = await this.api.POST(`${API}/orders/preview`, {
      body: { ...line, orderReference, integrationOrderContext },
    });
    if (!preview.data.canFulfill) throw new Error(`${checkout.skuCode} cannot be fulfilled now`);
    const unitPriceCents = preview.data.unitPriceCents ?? 0;
    this.log(`preview: ${unitPriceCents} ${preview.data.currencyCode} per key, can fulfil`);

    const attestId = await this.attestBuyerCountry();
    const holdId = await this.hold({ ...line, orderReference, integrationOrderContext }, unitPriceCents);
    const paymentId = this.payments.authorise(
      checkout.retailMinor * checkout.quantity,
      checkout.currencyCode,
    );
    this.log(`payment: ${paymentId} authorised`);
    this.journal.put({ orderReference, ...line, paymentId, state: 'sending' });

    try {
      const order = await this.api.POST(`${API}/orders`, {
        body: {
          ...line,
          orderReference,
          expectedUnitPriceCents: unitPriceCents,
          ...(holdId ? { checkoutHoldId: holdId } : {}),
          consumerGeoAttestId: attestId,
          integrationOrderContext: { ...integrationOrderContext, paymentProcessorReference: paymentId },
        },
      });
      if (options.crashAfterSend) throw new SimulatedCrash(`crashed before delivering ${orderReference}`);
      this.deliver(orderReference, paymentId, order.data.orderId, order.data.keys);
      return { orderReference, orderId: order.data.orderId, keys: order.data.keys, paymentId, attestId };
    } catch (error) {
      // A refusal means no keys were sold: release the money. A crash or a lost reply does not.
      if (error instanceof ApiError) {
        this.payments.void(paymentId);
        this.journal.put({ orderReference, ...line, paymentId, state: 'delivered' });
      }
      throw error;
    }
  }

  /** After a restart: the keys of every checkout the journal left `sending`, never new ones. */
  async recover() {
    const recovered = [];
    for (const entry of this.journal.pending()) {
      const got = await this.api.POST(`${API}/orders/recover-keys`, {
        body: { orderReference: entry.orderReference },
      });
      this.log(`recover: ${got.data.recovered} key(s) of ${entry.orderReference}`);
      this.deliver(entry.orderReference, entry.paymentId, got.data.orderId, got.data.keys);
      recovered.push({
        orderReference: entry.orderReference,
        orderId: got.data.orderId,
        keys: got.data.keys,
      });
    }
    return recovered;
  }

  /**
   * The checkout-page geo attestation (docs/checkout.md): our server creates it, the buyer's
   * browser POSTs to its capture URL (no key, no body: the snippet in docs/checkout.md), and
   * the order spends it. Here the "browser" is a plain fetch from this process.
   */
  private async attestBuyerCountry() {
    const attestation = await this.api.POST(`${API}/geo-attestations`, {});
    const captured = await fetch(attestation.data.captureUrl, { method: 'POST' });
    if (!captured.ok) throw new Error(`the buyer's page could not capture: ${captured.status}`);
    const { data } = (await captured.json()) as { data: { countryCode: string | null } };
    this.log(
      `attest: ${attestation.data.attestId} captured (country ${data.countryCode ?? 'not resolvable'})`,
    );
    return attestation.data.attestId;
  }

  /** A checkout hold where the seller may hold stock; otherwise the order runs without one. */
  private async hold(
    body: {
      skuCode: string;
      quantity: number;
      countryCode: string;
      orderReference: string;
      integrationOrderContext: Record<string, unknown>;
    },
    unitPriceCents: number,
  ) {
    try {
      const hold = await this.api.POST(`${API}/orders/hold`, {
        body: { ...body, expectedUnitPriceCents: unitPriceCents, ttlSeconds: 600 },
      });
      this.log(`hold: ${hold.data.holdId} until ${hold.data.expiresAt}`);
      return hold.data.holdId;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'CHECKOUT_HOLD_DISABLED') throw error;
      this.log('hold: not enabled for this seller, ordering without one');
      return undefined;
    }
  }

  private deliver(orderReference: string, paymentId: string, orderId: string, keys: string[]) {
    this.payments.capture(paymentId);
    const entry = this.journal.entries().find((e) => e.orderReference === orderReference);
    if (entry) this.journal.put({ ...entry, state: 'delivered', orderId });
    this.log(`order: ${orderId} delivered ${keys.length} key(s) to the buyer, payment captured`);
  }
}
