import { randomUUID } from 'node:crypto';

/**
 * A stand-in for the shop's payment processor: authorises a charge and captures it later.
 * The storefront captures only after the order has its keys and voids otherwise, so a buyer is
 * never charged for keys they did not get.
 */
export class FakePayments {
  readonly charges = new Map<string, { amountMinor: number; currency: string; state: string }>();

  authorise(amountMinor: number, currency: string): string {
    const id = `pay_${randomUUID()}`;
    this.charges.set(id, { amountMinor, currency, state: 'authorised' });
    return id;
  }

  capture(id: string): void {
    this.move(id, 'captured');
  }

  void(id: string): void {
    this.move(id, 'voided');
  }

  private move(id: string, state: string) {
    const charge = this.charges.get(id);
    if (charge?.state !== 'authorised') throw new Error(`charge ${id} is not authorised`);
    charge.state = state;
  }
}
