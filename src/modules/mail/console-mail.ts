import { type AppContext, runInBackground } from '../../context.js';
import type { Mail } from './mailer.js';

/**
 * Hands a message to the mailer after the current request (or batch), tracked so shutdown waits
 * for it; a failure never reaches the caller. False when no SMTP server is configured: then
 * nothing is attempted.
 */
export function mailInBackground(ctx: AppContext, mail: Mail): boolean {
  if (!ctx.mailer.enabled) return false;
  void runInBackground(ctx, () => ctx.mailer.send(mail));
  return true;
}

export interface InviteMailInput {
  to: string;
  companyName: string;
  role: string;
  /** `operator` or `user:<email>`. */
  invitedBy: string;
  /** The one-time link: a secret, so it appears in this message's body and nowhere else. */
  link: string;
  expiresAt: string;
}

export function inviteMail(input: InviteMailInput): Mail {
  const by = input.invitedBy.startsWith('user:') ? input.invitedBy.slice('user:'.length) : 'The operator';
  return {
    kind: 'invite',
    to: input.to,
    subject: `You are invited to the seller console of ${input.companyName}`,
    text: [
      `${by} invited you to the seller console of ${input.companyName} as ${input.role}.`,
      '',
      `Set your password with this link (it works once, until ${input.expiresAt}):`,
      input.link,
      '',
      'Keep the link to yourself: whoever opens it first becomes this user.',
      'If you did not expect this invitation, ignore this message.',
    ].join('\n'),
  };
}

export interface EndpointDisabledMailInput {
  to: string;
  companyName: string;
  environment: string;
  endpointId: string;
  endpointHost: string;
  reason: string;
  disabledAt: string;
  consoleUrl: string;
}

export function endpointDisabledMail(input: EndpointDisabledMailInput): Mail {
  return {
    kind: 'endpoint_disabled',
    to: input.to,
    subject: `Webhook endpoint ${input.endpointHost} disabled (${input.environment})`,
    text: [
      `A ${input.environment} webhook endpoint of ${input.companyName} was disabled at ${input.disabledAt}:`,
      `endpoint ${input.endpointId} (${input.endpointHost})`,
      `reason: ${input.reason}`,
      '',
      'Events for it are held, not lost. Once the receiver answers again, enable the endpoint:',
      input.consoleUrl,
      '',
      'You receive this because you are an owner of the company in the seller console.',
    ].join('\n'),
  };
}
