import { Writable } from 'node:stream';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, consoleCall, consoleUser, PASSWORD } from '../../../test/console.js';
import { makeSeller, type TestSeller } from '../../../test/factories.js';
import { type TestApp, useTestApp } from '../../../test/harness.js';
import { call } from '../../../test/route-contract.js';
import { startSmtpServer } from '../../../test/smtp.js';
import { companyEvent, deliverAll, useReceivers } from '../../../test/webhook-receiver.js';
import { Mailer } from '../mail/mailer.js';
import { inviteUser } from './users.service.js';

const smtp = await startSmtpServer({ refuse: /^refused-/ });
afterAll(() => smtp.close());
const t = useTestApp({
  smtpUrl: smtp.url,
  mailFrom: 'Console <console@example.test>',
  allowInsecureWebhooks: true,
});
const plain = useTestApp({ allowInsecureWebhooks: true });
const receiver = useReceivers();

/** Waits for the mail handed off after the reply (the background work shutdown also waits for). */
const settled = async (app: TestApp) => {
  while (app.ctx.background.size > 0) await Promise.allSettled([...app.ctx.background]);
};
const mailTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
const mailCount = async (app: TestApp, outcome: string) =>
  (await app.ctx.metrics.registry.getSingleMetric('sdapi_mail_total')!.get()).values
    .filter((v) => v.labels.outcome === outcome)
    .reduce((sum, v) => sum + v.value, 0);

/** An endpoint on a receiver that always answers 503, failed 10 times in a row: disabled. */
async function disableAnEndpoint(app: TestApp, seller: TestSeller) {
  const auth = seller.auth;
  const failing = await receiver((res) => void res.writeHead(503).end());
  const created = await call(app, {
    method: 'POST',
    url: '/api/seller/v1/webhooks',
    headers: auth,
    payload: { url: failing.url },
  });
  const endpointId = created.body.data.id as string;
  for (let i = 0; i < 10; i++) await companyEvent(app, seller.company.id);
  await deliverAll(app, { total: 128, perEndpoint: 32 });
  return { endpointId, failingHost: new URL(failing.url).host };
}

describe('console e-mail with an SMTP server configured', () => {
  it("e-mails an owner's invite with a link that works, and the link nowhere else", async () => {
    const owner = await consoleUser(t, 'owner');
    const email = `dev-${Date.now()}@example.com`;
    const invited = await consoleCall(t, owner, 'POST', '/team/invites', { email, role: 'developer' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email, emailed: true });
    await settled(t);

    const [mail, ...more] = mailTo(email);
    expect(more).toEqual([]);
    expect(mail!.from).toBe('console@example.test');
    expect(mail!.subject).toBe(`You are invited to the seller console of ${owner.seller.company.name}`);
    expect(mail!.text).toContain(`${owner.email} invited you`);
    const link = /(\S+\/console\/invite#\S+)/.exec(mail!.text)?.[1];
    expect(link).toBe(invited.body.data.link);
    const token = link!.split('#')[1]!;
    expect(mail!.subject).not.toContain(token);

    const accepted = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/invites/accept`,
      payload: { token, password: PASSWORD },
    });
    expect(accepted.status).toBe(204);
  });

  it("e-mails the operator's invite (sdapi users invite) too", async () => {
    const seller = await makeSeller(t);
    const email = `first-owner-${Date.now()}@example.com`;
    const invite = await inviteUser(t.ctx, {
      companyId: seller.company.id,
      email,
      role: 'owner',
      invitedBy: 'operator',
      source: 'cli',
    });
    expect(invite.emailed).toBe(true);
    await settled(t);
    expect(mailTo(email)).toEqual([
      expect.objectContaining({ text: expect.stringContaining(`The operator invited you`) }),
    ]);
    expect(mailTo(email)[0]!.text).toContain(invite.link);
  });

  it('never fails the invite when the send fails: counted, and logged without address, token or link', async () => {
    const failedBefore = await mailCount(t, 'failed');
    const owner = await consoleUser(t, 'owner');
    const email = `refused-${Date.now()}@example.com`;
    const invited = await consoleCall(t, owner, 'POST', '/team/invites', { email, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body.data.link).toMatch(/\/console\/invite#/);
    await settled(t);
    expect(mailTo(email)).toEqual([]);
    expect(await mailCount(t, 'failed')).toBe(failedBefore + 1);

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const mailer = new Mailer(
      { smtpUrl: smtp.url, mailFrom: 'console@example.test', logLevel: 'info' },
      new Registry(),
      pino({ level: 'info' }, sink),
    );
    const secret = 'https://console.example.test/console/invite#s3cr3t-token-value';
    await mailer.send({ kind: 'invite', to: email, subject: 'An invite', text: secret });
    mailer.close();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'mail not sent', kind: 'invite', code: 'EENVELOPE' });
    expect(lines[0]).not.toContain('refused-');
    expect(lines[0]).not.toContain('s3cr3t');
  });

  it('e-mails a disabled endpoint to the owners of its company only', async () => {
    const first = await consoleUser(t, 'owner');
    const second = await consoleUser(t, 'owner', first.seller);
    const developer = await consoleUser(t, 'developer', first.seller);
    const stranger = await consoleUser(t, 'owner');
    const { endpointId, failingHost } = await disableAnEndpoint(t, first.seller);
    await settled(t);

    const notices = smtp.messages.filter((m) => m.subject.startsWith('Webhook endpoint'));
    expect(notices.flatMap((m) => m.to).sort()).toEqual([first.email, second.email].sort());
    // The developer and the other company's owner got their invites, and nothing else.
    for (const other of [developer.email, stranger.email])
      expect(mailTo(other).map((m) => m.subject)).toEqual([expect.stringMatching(/^You are invited/)]);
    expect(notices[0]!.subject).toBe(`Webhook endpoint ${failingHost} disabled (sandbox)`);
    expect(notices[0]!.text).toContain(endpointId);
    expect(notices[0]!.text).toContain('10 consecutive failed deliveries; last: HTTP 503');
    expect(notices[0]!.text).toContain(`${t.config.publicUrl}/console/webhooks`);
  });
});

describe('console e-mail without an SMTP server', () => {
  it('attempts nothing: the invite link is only shown, and a disabled endpoint only noticed', async () => {
    const connectionsBefore = smtp.connections();
    const owner = await consoleUser(plain, 'owner');
    const invited = await consoleCall(plain, owner, 'POST', '/team/invites', {
      email: `quiet-${Date.now()}@example.com`,
      role: 'developer',
    });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ emailed: false, link: expect.stringContaining('#') });
    expect(plain.ctx.mailer.enabled).toBe(false);

    const { endpointId } = await disableAnEndpoint(plain, owner.seller);
    await settled(plain);
    const endpoint = await plain.ctx.db
      .selectFrom('webhook_endpoints')
      .select('status')
      .where('id', '=', endpointId)
      .executeTakeFirstOrThrow();
    expect(endpoint.status).toBe('disabled');
    expect(await mailCount(plain, 'sent')).toBe(0);
    expect(await mailCount(plain, 'failed')).toBe(0);
    expect(smtp.connections()).toBe(connectionsBefore);
  });
});
