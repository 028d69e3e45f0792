import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface JournalEntry {
  orderReference: string;
  skuCode: string;
  quantity: number;
  paymentId: string;
  /** `sending` until the buyer has the keys; a crash leaves it so. */
  state: 'sending' | 'delivered';
  orderId?: string;
}

/**
 * The shop's durable record of checkouts, written before the order is sent (never the keys:
 * they are recovered from the API). After a crash, every entry still `sending` is recovered.
 */
export class Journal {
  constructor(private readonly file: string) {}

  entries(): JournalEntry[] {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as JournalEntry[]) : [];
  }

  put(entry: JournalEntry): void {
    const rest = this.entries().filter((e) => e.orderReference !== entry.orderReference);
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, JSON.stringify([...rest, entry], null, 2));
    renameSync(temporary, this.file);
  }

  pending(): JournalEntry[] {
    return this.entries().filter((e) => e.state === 'sending');
  }
}
