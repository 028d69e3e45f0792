import { describe } from './glossary.js';

/** The parts of an OpenAPI 3.1 document the finishing pass reads and writes. */
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

interface MediaType {
  schema?: Record<string, unknown>;
  example?: unknown;
}

export interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> };
  responses: Record<string, Response>;
}

export interface Doc {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
}

/** Gives the fields of a schema (nested objects, arrays, unions) their glossary descriptions. */
export function describeFields(schema: unknown, depth = 0): void {
  if (!schema || typeof schema !== 'object' || depth > 8) return;
  const s = schema as Record<string, unknown>;
  const properties = s.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, field] of Object.entries(properties ?? {})) {
    if (field && typeof field === 'object' && field.description === undefined && field.$ref === undefined) {
      const text = describe(name);
      if (text) field.description = text;
    }
    describeFields(field, depth + 1);
  }
  describeFields(s.items, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const part of (s[key] as unknown[] | undefined) ?? []) describeFields(part, depth + 1);
  }
}

export const TAGS: Record<'seller' | 'admin', { name: string; description: string }[]> = {
  seller: [
    { name: 'utility', description: 'Health and the caller address; no key needed.' },
    { name: 'identity', description: 'Who the key is, readiness, and the selling footprint.' },
    { name: 'keys', description: 'API keys: create, restrict by IP, rotate, revoke.' },
    {
      name: 'catalog',
      description: 'Partners, allocations, availability, products, prices and catalog mirrors.',
    },
    { name: 'checkout', description: 'Preview, holds, orders, pulls and key recovery.' },
    {
      name: 'finance',
      description: 'Sale lines, statements, invoices, activity, ledger, usage and reports.',
    },
    { name: 'promotions', description: 'Shares and deals offered by publishers.' },
    { name: 'after-sale', description: 'Refunds, chargebacks and key returns.' },
    { name: 'webhooks', description: 'Webhook endpoints, deliveries and the event feed.' },
  ],
  admin: [
    { name: 'companies', description: 'Publisher and seller companies, capabilities and keys.' },
    { name: 'partners', description: 'Publisher-seller connections and SKU shares.' },
    { name: 'agreements', description: 'Agreements, supersession and amendments.' },
    { name: 'catalog', description: 'Products, editions, releases, SKUs, prices and reference rates.' },
    { name: 'allocations', description: 'Allocations granted to sellers.' },
    { name: 'inventory', description: 'Key pools and key import.' },
    { name: 'promotions', description: 'Shares and deals.' },
    { name: 'finance', description: 'Month close and invoices.' },
    { name: 'after-sale', description: 'Quarantined keys and chargeback reinstatement.' },
    { name: 'webhooks', description: 'Delivery inspection and replay.' },
    { name: 'test clock', description: 'Moving the service clock in test deployments.' },
    { name: 'contract dates', description: 'Sunsets of contract dates (Deprecation, Sunset, Link headers).' },
    { name: 'orders', description: "Pre-orders cancelled on a publisher's behalf." },
  ],
};
