import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ConsoleUser, consoleCall, consoleUser } from '../../../test/console.js';
import { makeKey } from '../../../test/factories.js';
import { useTestApp } from '../../../test/harness.js';
import { call, expectApiError } from '../../../test/route-contract.js';
import { SCOPES, type Scope } from '../../http/auth/scopes.js';
import { ROLES, type Role } from './console.table.js';

const t = useTestApp();

/**
 * The table "Scopes a role may hand a key" of docs/console.md, read as the expectation: every
 * scope of the code must have a row and every role a column, so a new one cannot be left out.
 */
function documentedCeiling(): Map<Role, Set<Scope>> {
  const doc = readFileSync(new URL('../../../docs/console.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('### Scopes a role may hand a key'));
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  const header = lines[0]!.split('|').map((cell) => cell.trim());
  const ceiling = new Map<Role, Set<Scope>>();
  for (const role of ROLES) {
    expect(header, `docs/console.md has no column for ${role}`).toContain(role);
    ceiling.set(role, new Set());
  }
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(2)) {
    const cells = line.split('|').map((cell) => cell.trim());
    rows.set(cells[1]!.replaceAll('`', ''), cells);
  }
  for (const scope of SCOPES) {
    const cells = rows.get(scope);
    expect(cells, `docs/console.md has no row for ${scope}`).toBeDefined();
    for (const role of ROLES) {
      const cell = cells![header.indexOf(role)];
      expect(['yes', 'no'], `${scope} x ${role}`).toContain(cell);
      if (cell === 'yes') ceiling.get(role)!.add(scope);
    }
  }
  expect([...rows.keys()].sort()).toEqual([...SCOPES].sort());
  return ceiling;
}

const keyRow = (id: string) =>
  t.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const scopesOfRow = async (id: string) => JSON.parse((await keyRow(id)).scopes) as Scope[];

async function team(): Promise<Record<Role, ConsoleUser>> {
  const owner = await consoleUser(t, 'owner');
  return {
    owner,
    developer: await consoleUser(t, 'developer', owner.seller),
    finance: await consoleUser(t, 'finance', owner.seller),
    viewer: await consoleUser(t, 'viewer', owner.seller),
  };
}

describe('the scopes a console role may hand a key', () => {
  it('every role x scope: create, rotate and roll follow the documented ceiling, and the Keys page offers exactly it', async () => {
    const ceiling = documentedCeiling();
    const users = await team();
    const companyId = users.owner.seller.company.id;
    const liveKeys = async () =>
      (
        await t.ctx.db
          .selectFrom('api_keys')
          .select('id')
          .where('company_id', '=', companyId)
          .where('revoked_at', 'is', null)
          .execute()
      ).length;
    for (const role of ROLES) {
      const user = users[role];
      const allowed = ceiling.get(role)!;
      // A role that may hand out nothing cannot write keys at all: the role refusal, not a scope one.
      const refusal = allowed.size > 0 ? 'INSUFFICIENT_SCOPE' : 'FORBIDDEN';
      const listed = await consoleCall(t, user, 'GET', '/keys');
      expect([...listed.body.meta.grantableScopes].sort(), role).toEqual([...allowed].sort());
      for (const scope of SCOPES) {
        const cell = `${role} x ${scope}`;
        const before = await liveKeys();
        const created = await consoleCall(t, user, 'POST', '/keys', {
          name: cell,
          scopes: [scope],
          allowedIps: [],
        });
        const target = (await makeKey(t, companyId, { scopes: [scope] })).keyId;
        const rotated = await consoleCall(t, user, 'POST', `/keys/${target}/rotate`);
        const rolled = await consoleCall(t, user, 'POST', `/keys/${target}/roll`);
        if (allowed.has(scope)) {
          expect(created.status, cell).toBe(201);
          expect(await scopesOfRow(created.body.data.id), cell).toEqual([scope]);
          expect(rotated.status, cell).toBe(200);
          expect(rolled.status, cell).toBe(201);
          expect(await liveKeys(), cell).toBe(before + 3);
          continue;
        }
        for (const [action, answer] of [
          ['create', created],
          ['rotate', rotated],
          ['roll', rolled],
        ] as const) {
          expectApiError(answer, 403, refusal);
          if (refusal === 'INSUFFICIENT_SCOPE') {
            expect(answer.body.details.missingScopes, `${cell} ${action}`).toEqual([scope]);
            expect(answer.body.message, `${cell} ${action}`).toContain(scope);
          }
        }
        expect((await keyRow(target)).rotated_at, cell).toBeNull();
        expect(await liveKeys(), cell).toBe(before + 1);
      }
    }
  });

  it('a developer cannot mint a key that reads finance or edits the footprint, and names both scopes', async () => {
    const { developer } = await team();
    const refused = await consoleCall(t, developer, 'POST', '/keys', {
      name: 'finance through the back door',
      scopes: ['seller:products:read', 'seller:finance:read', 'seller:account:manage'],
      allowedIps: [],
    });
    expectApiError(refused, 403, 'INSUFFICIENT_SCOPE');
    expect(refused.body.details.missingScopes).toEqual(['seller:finance:read', 'seller:account:manage']);
    const own = (await consoleCall(t, developer, 'GET', '/keys')).body.meta.grantableScopes as string[];
    const minted = await consoleCall(t, developer, 'POST', '/keys', {
      name: 'everything a developer may',
      scopes: own,
      allowedIps: [],
    });
    expect(minted.status).toBe(201);
    const headers = { authorization: `Bearer ${minted.body.data.key}` };
    const statements = await call(t, { method: 'GET', url: '/api/seller/v1/finance/statements', headers });
    expectApiError(statements, 403, 'INSUFFICIENT_SCOPE');
    const footprint = await call(t, {
      method: 'PUT',
      url: '/api/seller/v1/me/footprint',
      headers,
      payload: { countries: ['DE'], currencies: ['EUR'] },
    });
    expectApiError(footprint, 403, 'INSUFFICIENT_SCOPE');
  });

  it("keys minted through the API never hold a scope their parent lacks, nor reveal a broader key's secret", async () => {
    const ceiling = documentedCeiling();
    const users = await team();
    const ownerKey = users.owner.seller.keyId;
    for (const role of ROLES) {
      const allowed = [...ceiling.get(role)!];
      if (!allowed.includes('seller:keys:write')) continue;
      const parent = await consoleCall(t, users[role], 'POST', '/keys', {
        name: `${role} parent`,
        scopes: allowed,
        allowedIps: [],
      });
      expect(parent.status, role).toBe(201);
      const headers = { authorization: `Bearer ${parent.body.data.key}` };
      const holdsFinance = allowed.includes('seller:finance:read');
      const asked = await call(t, {
        method: 'POST',
        url: '/api/seller/v1/keys',
        headers,
        payload: { name: `${role} child with finance`, includeFinanceScope: true },
      });
      if (holdsFinance) expect(asked.status, role).toBe(201);
      else expectApiError(asked, 403, 'INSUFFICIENT_SCOPE');
      const child = await call(t, {
        method: 'POST',
        url: '/api/seller/v1/keys',
        headers,
        payload: { name: `${role} child` },
      });
      expect(child.status, role).toBe(201);
      for (const id of [child.body.data.id, ...(holdsFinance ? [asked.body.data.id] : [])]) {
        const held = await scopesOfRow(id);
        expect(
          held.filter((scope) => !allowed.includes(scope)),
          role,
        ).toEqual([]);
      }
      // The owner's own key holds every scope: a narrower parent rotating it is refused.
      if (allowed.length < SCOPES.length) {
        const rotate = await call(t, {
          method: 'POST',
          url: `/api/seller/v1/keys/${ownerKey}/rotate`,
          headers,
        });
        expectApiError(rotate, 403, 'INSUFFICIENT_SCOPE');
        expect(rotate.body.details.missingScopes.sort()).toEqual(
          SCOPES.filter((scope) => !allowed.includes(scope)).sort(),
        );
        expect((await keyRow(ownerKey)).rotated_at).toBeNull();
      }
    }
  });
});
