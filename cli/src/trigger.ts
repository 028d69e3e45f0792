import { CliError } from './errors.js';
import { environmentOf, type Session } from './session.js';
import { colours, emit, type Terminal } from './terminal.js';
import { RECIPES } from './trigger-recipes.js';

export function listTriggers(t: Terminal): void {
  for (const [eventType, recipe] of Object.entries(RECIPES)) {
    emit(t, { eventType, how: recipe.how }, `${eventType.padEnd(18)} ${recipe.how}`);
  }
}

/**
 * Refuses anything but a sandbox key before a single call: a trigger places real orders, and on
 * a production key they would be real sales.
 */
export function assertSandboxKey(apiKey: string): void {
  if (environmentOf(apiKey) !== 'sandbox') {
    throw new CliError(
      'trigger works with sandbox keys only: this is a production key, and nothing was sent',
      'use a service_sk_sbx_… key (pass --api-key or set SDAPI_API_KEY)',
    );
  }
}

export async function trigger(
  t: Terminal,
  session: Session,
  eventType: string,
  options: { endpoint?: string },
): Promise<void> {
  const recipe = RECIPES[eventType];
  if (!recipe) {
    throw new CliError(
      `cannot trigger ${eventType}`,
      `one of: ${Object.keys(RECIPES).join(', ')} (sdapi-seller trigger --list)`,
    );
  }
  const steps = await recipe.run(session, options);
  const paint = colours(t.out, t.env);
  for (const step of steps) {
    emit(
      t,
      { eventType, ...step },
      `${paint('green', 'ok')} ${step.call.padEnd(28)} ${step.result}  requestId ${step.requestId}`,
    );
  }
  if (!t.json) t.out.write(`Triggered ${eventType}: it reaches listen and your endpoints once published.\n`);
}
