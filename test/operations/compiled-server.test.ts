import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alwaysOrder } from '../checkout.js';
import {
  ADMIN_TOKEN,
  type CompiledServer,
  IP_PEPPER,
  MASTER_KEY,
  startCompiledServer,
} from '../compiled-server.js';

// The built artefact as operators run it: `node dist/server.js` on embedded SQLite, whatever
// DATABASE_URL the suite runs with (the PostgreSQL topology is covered by the multi-process tests).
let server: CompiledServer;
beforeAll(async () => {
  server = await startCompiledServer();
});
afterAll(() => {
  if (server?.process.exitCode === null) server.process.kill('SIGKILL');
});

const adminAuth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
const BUYER_IP = '81.2.69.142';
const CONSUMER_IP = '81.2.69.160';

const run = promisify(execFile);

async function json(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

async function sandboxSeller() {
  const company = await json(`${server.admin}/admin/v1/companies`, {
    method: 'POST',
    headers: adminAuth,
    body: JSON.stringify({ name: 'Compiled Shop', country: 'US' }),
  });
  const key = await json(`${server.admin}/admin/v1/companies/${company.body.data.id}/keys`, {
    method: 'POST',
    headers: adminAuth,
    body: JSON.stringify({ environment: 'sandbox' }),
  });
  expect(key.status).toBe(201);
  return {
    companyId: company.body.data.id as string,
    keyId: key.body.data.id as string,
    token: key.body.data.key as string,
  };
}

const orderBody = () =>
  JSON.stringify(
    alwaysOrder({
      integrationOrderContext: { ...alwaysOrder().integrationOrderContext, consumerIp: CONSUMER_IP },
    }),
  );

describe('the compiled server (node dist/server.js)', () => {
  it('serves /admin/v1, /metrics and /health only on ADMIN_PORT: the seller port answers 404 in the ApiError envelope', async () => {
    for (const path of ['/admin/v1/companies', '/admin/v1/openapi.json', '/metrics', '/health/ready']) {
      const onSeller = await json(`${server.seller}${path}`, { headers: adminAuth });
      expect(onSeller.status, path).toBe(404);
      expect(onSeller.body).toMatchObject({ code: 'NOT_FOUND', requestId: expect.stringMatching(/^req_/) });
    }
    expect((await json(`${server.admin}/admin/v1/companies`, { headers: adminAuth })).status).toBe(200);
    expect((await fetch(`${server.admin}/admin/v1/openapi.json`)).status).toBe(200);
    expect((await json(`${server.admin}/api/seller/v1/whoami`)).status).toBe(404);
  });

  it('logs one line per request with its id, route, status, error code, company and key; never a secret, key or buyer IP', async () => {
    const seller = await sandboxSeller();
    const headers = {
      authorization: `Bearer ${seller.token}`,
      'content-type': 'application/json',
      'x-forwarded-for': BUYER_IP,
    };
    const order = await json(`${server.seller}/api/seller/v1/orders`, {
      method: 'POST',
      headers,
      body: orderBody(),
    });
    expect(order.status).toBe(200);
    const keys: string[] = order.body.data.keys;
    expect(keys.length).toBe(1);
    const refused = await json(`${server.seller}/api/seller/v1/orders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...JSON.parse(orderBody()), quantity: 0 }),
    });
    expect(refused.status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const placed = lines.find(
      (l) => l.msg === 'request' && l.route === '/api/seller/v1/orders' && l.status === 200,
    );
    expect(placed).toMatchObject({
      reqId: expect.stringMatching(/^req_/),
      listener: 'seller',
      method: 'POST',
      companyId: seller.companyId,
      keyId: seller.keyId,
      environment: 'sandbox',
      durationMs: expect.any(Number),
    });
    expect(
      lines.find((l) => l.msg === 'request' && l.status === 422),
      server.output(),
    ).toMatchObject({
      reqId: refused.body.requestId,
      errorCode: 'VALIDATION_FAILED',
      companyId: seller.companyId,
    });

    const output = server.output();
    for (const secret of [seller.token, ADMIN_TOKEN, MASTER_KEY, IP_PEPPER, ...keys, BUYER_IP, CONSUMER_IP]) {
      expect(output.includes(secret), `the log holds ${secret}`).toBe(false);
    }
  });

  it('on SIGTERM finishes every in-flight request, answers unready while draining, and exits 0', async () => {
    const seller = await sandboxSeller();
    const body = orderBody();
    // An order whose body is still arriving when the signal comes: in flight across SIGTERM, on a
    // kept-alive connection that turns idle only after the drain began (it must not hold the exit).
    const keepAlive = new Agent({ keepAlive: true });
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${server.seller}/api/seller/v1/orders`, {
        method: 'POST',
        agent: keepAlive,
        headers: {
          authorization: `Bearer ${seller.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 1_500);
    });
    // Load beside it: every request is answered 200, or, arriving on a kept-alive connection
    // after the drain began, 503 SERVICE_UNAVAILABLE in the envelope with Connection: close.
    let signalled = false;
    const answered: { status: number; code?: string; afterSignal: boolean }[] = [];
    const load = Array.from({ length: 6 }, async () => {
      for (;;) {
        try {
          const response = await fetch(`${server.seller}/api/seller/v1/whoami`, {
            headers: { authorization: `Bearer ${seller.token}`, connection: 'close' },
          });
          const text = await response.text();
          const code = response.status === 200 ? undefined : (JSON.parse(text) as { code: string }).code;
          answered.push({ status: response.status, code, afterSignal: signalled });
          if (response.status === 503) expect(response.headers.get('connection')).toBe('close');
        } catch (err) {
          // Refused once the listener closed: never accepted, so never in flight.
          if (!signalled) throw err;
          return;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answeredBeforeSignal = answered.length;
    signalled = true;
    server.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ready = await json(`${server.admin}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { draining: true } });

    const finished = await inFlight;
    expect(finished.status, finished.body).toBe(200);
    expect(JSON.parse(finished.body).data.keys).toHaveLength(1);
    await Promise.all(load);
    expect(answeredBeforeSignal).toBeGreaterThan(0);
    for (const a of answered) {
      if (a.status !== 200)
        expect(a).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', afterSignal: true });
    }
    const code = await server.exited;
    keepAlive.destroy();
    expect(code, server.output().split('\n').slice(-15).join('\n')).toBe(0);
    expect(server.output()).toContain('shut down cleanly');
  }, 60_000);
});

describe('the demo key', () => {
  it('is printed at the first start only, beside the demo company id; every later start prints the id and its one-line recovery', async () => {
    const first = await startCompiledServer();
    const token = first.output().match(/service_sk_sbx_\w+/)?.[0];
    expect(token).toBeDefined();
    const firstId = first.output().match(/A demo seller company was created \(id ([0-9a-f-]{36})\)/)?.[1];
    expect(firstId).toBeDefined();
    expect(first.output()).toContain(`Demo seller ${firstId}: lost its key?`);
    expect(first.output()).toContain(
      `Seller console: http://localhost:${new URL(first.seller).port}/console`,
    );
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const again = await startCompiledServer({ DATA_DIR: first.dataDir });
    try {
      const demo = await json(`${again.admin}/admin/v1/companies?kind=seller`, { headers: adminAuth });
      const demoId = demo.body.data.find((c: { name: string }) => c.name === 'Demo Seller').id;
      expect(demoId).toBe(firstId);
      expect(again.output()).toMatch(
        new RegExp(
          `Demo seller ${demoId}: lost its key\\? .*npx sdapi key create --company ${demoId} --environment sandbox`,
        ),
      );
      expect(again.output()).not.toContain(token);
    } finally {
      again.process.kill('SIGTERM');
      await again.exited;
    }
  }, 120_000);
});

describe('npm start', () => {
  it('hands SIGTERM to the server itself: the service stops and npm exits 0', async () => {
    const started = await startCompiledServer({ npm_config_loglevel: 'silent' }, ['npm', 'start']);
    try {
      started.process.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      expect(started.output()).toContain('shut down cleanly');
      await expect(fetch(`${started.seller}/api/seller/v1/whoami`)).rejects.toThrow();
    } finally {
      if (started.process.exitCode === null) started.process.kill('SIGKILL');
    }
  }, 120_000);
});

describe('the start banner lets the first console owner in', () => {
  it("prints the console's address and an invite command that, pasted as printed, reaches this server's database and address", async () => {
    const server = await startCompiledServer();
    try {
      const port = new URL(server.seller).port;
      const printed = server.output().match(/^ {2}(.*npx sdapi users invite .*)$/m)?.[1];
      expect(printed, server.output()).toBeDefined();
      // The operator runs it in another shell: only PATH and the secrets of its environment are shared.
      const command = `${printed} --json`.replace('npx sdapi', `${process.execPath} bin/sdapi.js`);
      const { stdout } = await run('sh', ['-c', command], {
        env: { PATH: process.env.PATH ?? '', SDAPI_MASTER_KEY: MASTER_KEY, SDAPI_IP_PEPPER: IP_PEPPER },
      });
      const invite = JSON.parse(stdout);
      expect(invite).toMatchObject({ email: 'you@example.com', role: 'owner' });
      expect(invite.link).toMatch(new RegExp(`^http://localhost:${port}/console/invite#`));
      const token = invite.link.split('#')[1];
      const opened = await json(`${server.seller}/console/api/invites/lookup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      expect(opened).toMatchObject({
        status: 200,
        body: { data: { email: 'you@example.com', role: 'owner' } },
      });
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
