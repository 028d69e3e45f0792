import type { TSchema } from '@sinclair/typebox';
import { EVENT_TYPES, type EventType } from './event-types.js';

const EXAMPLE_TIME = '2026-01-15T10:30:00.000Z';

/** A plausible value for one field, from its schema and its name (the console's example payloads). */
function exampleOf(schema: TSchema, name: string): unknown {
  if ('const' in schema) return schema.const;
  if (schema.anyOf) return exampleOf((schema.anyOf as TSchema[])[0]!, name);
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties as Record<string, TSchema>).map(([key, sub]) => [
          key,
          exampleOf(sub, key),
        ]),
      );
    case 'array':
      return [exampleOf(schema.items as TSchema, name.replace(/s$/, ''))];
    case 'integer':
    case 'number':
      return /cents/i.test(name) ? 1999 : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      if (schema.pattern || /At$/.test(name)) return EXAMPLE_TIME;
      if (/currency/i.test(name)) return 'EUR';
      if (/reference/i.test(name)) return 'order-1001';
      if (/skuCode/.test(name)) return 'SKU-EXAMPLE-01';
      if (/Code$/.test(name)) return 'EXAMPLE';
      if (/Id$|^id$/.test(name)) return '01936f5e-7c1a-7000-8000-000000000001';
      return name;
  }
}

/** What a webhook of this type looks like when it arrives (envelope and `data`). */
export function exampleEnvelope(type: EventType) {
  return {
    eventId: 'evt_01936f5e7c1a70008000000000000001',
    eventType: type,
    eventVersion: EVENT_TYPES[type].version,
    createdAt: EXAMPLE_TIME,
    data: exampleOf(EVENT_TYPES[type].payload, 'data'),
  };
}
