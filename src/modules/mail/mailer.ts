import { createTransport, type Transporter } from 'nodemailer';
import pino from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../../config.js';

/** What a message is about: the label of its metric and log line. */
export type MailKind = 'invite' | 'endpoint_disabled';

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
}

/** How long a send may wait for the SMTP server at each step before it counts as failed. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * The console's outgoing mail through the operator's SMTP server (SDAPI_SMTP_URL). Without one
 * it is disabled and nothing is ever attempted. A send never throws: a failure is logged with its
 * kind and error code only (never the recipient, the body or a link in it) and counted in
 * `sdapi_mail_total{outcome="failed"}`.
 */
export class Mailer {
  private readonly transport: Transporter | null;
  private readonly sent: Counter<'kind' | 'outcome'>;

  constructor(
    config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'logLevel'>,
    registry: Registry,
    private readonly log: pino.Logger = pino({ level: config.logLevel }).child({ component: 'mail' }),
  ) {
    this.transport = config.smtpUrl
      ? createTransport(
          {
            url: config.smtpUrl,
            connectionTimeout: SMTP_TIMEOUT_MS,
            greetingTimeout: SMTP_TIMEOUT_MS,
            socketTimeout: SMTP_TIMEOUT_MS,
          },
          { from: config.mailFrom },
        )
      : null;
    this.sent = new Counter({
      name: 'sdapi_mail_total',
      help: 'Console e-mails handed to the SMTP server or refused, by kind and outcome (sent, failed).',
      labelNames: ['kind', 'outcome'] as const,
      registers: [registry],
    });
  }

  /** True when an SMTP server is configured. */
  get enabled(): boolean {
    return this.transport !== null;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) return;
    try {
      await this.transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
      this.sent.inc({ kind: mail.kind, outcome: 'sent' });
    } catch (error) {
      this.sent.inc({ kind: mail.kind, outcome: 'failed' });
      const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
      this.log.warn(
        { kind: mail.kind, code: typeof code === 'string' ? code : undefined, responseCode },
        'mail not sent',
      );
    }
  }

  close(): void {
    this.transport?.close();
  }
}
