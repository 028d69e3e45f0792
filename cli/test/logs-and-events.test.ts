import { createSdapiClient } from '@sdapi/sdk';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SERVICE_SKIPPED, useSandboxService } from '../../test/sandbox-service.js';
import { Receiver, runCli, spawnCli } from './cli-process.js';

describe.skipIf(SANDBOX_SERVICE_SKIPPED)(
  'sdapi-seller logs tail and events against a running sandbox service',
  () => {
    const service = useSandboxService();
    const env = () => ({ SDAPI_API_KEY: service.apiKey, SDAPI_BASE_URL: service.baseUrl });
    const api = () => createSdapiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });

    it('logs tail follows the request log: a request made by the test shows up with its request id', async () => {
      const tail = spawnCli(['logs', 'tail', '--interval', '200'], env());
      const failures = spawnCli(['logs', 'tail', '--status', '4xx', '--interval', '200', '--json'], env());
      try {
        await new Promise((r) => setTimeout(r, 3_000)); // both have printed their first page
        const ok = await api().raw.GET('/api/seller/v1/whoami');
        const okId = ok.response.headers.get('x-request-id')!;
        const missing = await api().raw.GET('/api/seller/v1/orders/{orderReadableId}', {
          params: { path: { orderReadableId: 'ord_doesnotexist' } },
        });
        const missingId = missing.response.headers.get('x-request-id')!;
        expect(missing.response.status).toBe(404);

        await tail.waitFor(new RegExp(`GET\\s+/api/seller/v1/whoami\\s+200 [\\d.]+ ms\\s+${okId}`));
        await tail.waitFor(new RegExp(`404 [\\d.]+ ms\\s+${missingId}\\s+NOT_FOUND`));
        const row = await failures.waitFor(new RegExp(`\\{[^\\n]*"${missingId}"[^\\n]*\\}`));
        expect(JSON.parse(row[0])).toMatchObject({
          requestId: missingId,
          status: 404,
          errorCode: 'NOT_FOUND',
        });
        expect(failures.stdout()).not.toContain(okId);

        // The other tail's polls show (they are requests of this seller); a tail's own never do.
        failures.child.kill('SIGINT');
        expect(await failures.exited).toBe(0);
        const pollLines = () =>
          tail
            .stdout()
            .split('\n')
            .filter((l) => l.includes('/request-logs')).length;
        await new Promise((r) => setTimeout(r, 1_500));
        const before = pollLines();
        await new Promise((r) => setTimeout(r, 2_000)); // about ten polls of its own
        expect(pollLines()).toBe(before);
      } finally {
        tail.child.kill('SIGINT');
        failures.child.kill('SIGINT');
        expect(await tail.exited).toBe(0);
      }
    }, 90_000);

    it('events resend and replay queue deliveries to an endpoint, and an API error prints code, message, hint and requestId', async () => {
      const receiver = await new Receiver().start();
      try {
        const endpoint = (
          await api().POST('/api/seller/v1/webhooks', {
            body: { url: receiver.url, eventTypes: ['order.fulfilled'] },
          })
        ).data;
        const ping = await runCli(['trigger', 'test.ping', '--endpoint', endpoint.id], env());
        expect(ping.code).toBe(0);
        const eventId = /event (evt_\w+)/.exec(ping.stdout)![1]!;

        const resent = await runCli(
          ['events', 'resend', eventId, '--endpoint', endpoint.id, '--json'],
          env(),
        );
        expect(resent.code).toBe(0);
        expect(JSON.parse(resent.stdout)).toMatchObject({
          eventId,
          endpointId: endpoint.id,
          requestId: expect.stringMatching(/^req_/),
        });

        const replayed = await runCli(
          ['events', 'replay', '--endpoint', endpoint.id, '--since', '2020-01-01T00:00:00Z'],
          env(),
        );
        expect(replayed.code).toBe(0);
        expect(replayed.stdout).toMatch(
          new RegExp(`^Queued \\d+ event\\(s\\) since .* to endpoint ${endpoint.id}  requestId req_\\w+\\n$`),
        );

        const unknown = await runCli(
          ['events', 'resend', eventId, '--endpoint', '01a00000-0000-7000-8000-000000000000'],
          env(),
        );
        expect(unknown.code).toBe(1);
        expect(unknown.stderr).toMatch(/^error 404 NOT_FOUND: .+\n {2}hint: .+\n {2}requestId: req_\w+\n$/);
        expect(unknown.stderr).not.toMatch(/\n\s+at /);
      } finally {
        await receiver.stop();
      }
    }, 90_000);

    it('says in one line when no service answers at the address', async () => {
      const r = await runCli(['events', 'replay', '--endpoint', 'x', '--since', '2026-01-01T00:00:00Z'], {
        ...env(),
        SDAPI_BASE_URL: 'http://127.0.0.1:9',
      });
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n')[0]).toMatch(/^error: no service answers at http:\/\/127\.0\.0\.1:9/);
    }, 30_000);
  },
);
