import { describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleUser, consoleUser } from '../../../test/console.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';

const t = useTestApp();

/** A console call carrying a valid session and CSRF token, with the body and content type given. */
const send = (
  user: ConsoleUser,
  method: 'POST' | 'PUT',
  path: string,
  contentType: string,
  payload: string,
) =>
  call(t, {
    method,
    url: `${CONSOLE_API}${path}`,
    headers: { cookie: user.cookie, 'x-csrf-token': user.csrf, 'content-type': contentType },
    payload,
  });

const keyCount = async (companyId: string) =>
  (await t.ctx.db.selectFrom('api_keys').select('id').where('company_id', '=', companyId).execute()).length;

describe('console calls read JSON bodies only', () => {
  it('answers 415 to a text/plain, form or untyped body on a route that takes JSON, and does nothing', async () => {
    const user = await consoleUser(t, 'owner');
    const before = await keyCount(user.seller.company.id);
    const json = JSON.stringify({ name: 'web shop', scopes: ['seller:products:read'], allowedIps: [] });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded']) {
      expectApiError(await send(user, 'POST', '/keys', type, json), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const untyped = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/keys`,
      headers: { cookie: user.cookie, 'x-csrf-token': user.csrf },
      payload: Buffer.from(json),
    });
    expectApiError(untyped, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await keyCount(user.seller.company.id)).toBe(before);
    // The same body as JSON (with a charset) is performed.
    const created = await send(user, 'POST', '/keys', 'application/json; charset=utf-8', json);
    expect(created.status).toBe(201);
    expect(await keyCount(user.seller.company.id)).toBe(before + 1);
  });

  it('refuses any body on a route that takes none: no TOTP secret is issued', async () => {
    const user = await consoleUser(t, 'owner');
    const secretOf = async () =>
      (
        await t.ctx.db
          .selectFrom('console_users')
          .select('totp_secret')
          .where('id', '=', user.userId)
          .executeTakeFirstOrThrow()
      ).totp_secret;
    for (const [type, payload] of [
      ['text/plain', 'start'],
      ['application/json', '{}'],
    ]) {
      const refused = await send(user, 'POST', '/totp/start', type!, payload!);
      expectApiError(refused, 422, 'VALIDATION_FAILED');
      expect(refused.body.details.issues).toEqual([
        { in: 'body', field: '(root)', keyword: 'noBody', message: 'this call takes no body; send none' },
      ]);
    }
    expect(await secretOf()).toBeNull();
    const started = await call(t, {
      method: 'POST',
      url: `${CONSOLE_API}/totp/start`,
      headers: { cookie: user.cookie, 'x-csrf-token': user.csrf },
    });
    expect(started.status).toBe(200);
    expect(await secretOf()).not.toBeNull();
  });
});
