import admin from './examples/admin.json' with { type: 'json' };
import seller from './examples/seller.json' with { type: 'json' };

/** A real exchange with the sandbox, recorded by the test suite (test/openapi-recorder.ts). */
export interface RecordedExample {
  /** The JSON request body, when the operation takes one. */
  request?: unknown;
  status: number;
  body: unknown;
}

/** By operationId. */
export type Examples = Readonly<Record<string, RecordedExample>>;

const FILES = { seller, admin } as unknown as Record<'seller' | 'admin', Examples>;

export const examplesOf = (kind: 'seller' | 'admin'): Examples => FILES[kind];
