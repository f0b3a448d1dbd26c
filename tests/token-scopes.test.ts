import { describe, expect, it } from 'vitest';
import { operations, type Operation } from '@/lib/contract/operations';
import { isScope, SCOPES } from '@/lib/contract/scopes';
import { useFileServer } from './support/file-server';
import { adminSession, call } from './support/http';
import { registerMember } from './support/members';
import { makeToken } from './support/tokens';

useFileServer();

/**
 * The scope matrix, generated from lib/contract/operations.ts: every operation (a new one
 * included) is called with a token lacking its scope and with a token holding only it.
 */
const ID = '00000000-0000-4000-8000-000000000000';
const all = Object.entries(operations as Record<string, Operation>);
const urlOf = (op: Operation) => op.path.replace(/\{\w+\}/g, ID);
const deployScopes = (s: string) => s === 'admin' || s === 'sites:deploy' || s.startsWith('sites:deploy:');

/** The scope a token needs for the operation, with the path's {slug} filled in. */
const needed = (op: Operation) => (op.scope === 'sites:deploy:{slug}' ? `sites:deploy:${ID}` : op.scope);

describe('access-token scopes, per operation (generated from the contract)', () => {
  it('every operation declares a scope: a real scope, sites:deploy:{slug}, public (no credentials needed) or no-token', () => {
    for (const [name, op] of all) {
      const ok = op.scope === 'public' ? op.auth === 'none' || op.auth === 'optional' : op.scope === 'no-token' || op.scope === 'sites:deploy:{slug}' || isScope(op.scope);
      expect([name, op.scope, ok]).toEqual([name, op.scope, true]);
    }
  });

  it('the OpenAPI document lists each operation’s scope on its bearer requirement', async () => {
    const doc = (await call('GET', '/api/openapi.json')).json;
    for (const [name, op] of all) {
      const documented = doc.paths[op.path][op.method.toLowerCase()];
      expect([name, documented['x-htmls-scope']]).toEqual([name, op.scope]);
      const bearer = (documented.security as Record<string, string[]>[]).find((s) => 'bearer' in s)?.bearer;
      if (op.auth === 'none') expect([name, bearer]).toEqual([name, undefined]);
      else expect([name, bearer]).toEqual([name, op.scope === 'public' || op.scope === 'no-token' ? [] : [op.scope]]);
    }
  });

  it('a token without the scope gets 403 insufficient_scope naming it (no-token operations: 403 forbidden); with only that scope it gets past authorization', async () => {
    const admin = (await adminSession()).token;
    const member = await registerMember();
    const cache = new Map<string, string>();
    const tokenOf = async (owner: 'admin' | 'member', scopes: string[]) => {
      const key = `${owner}:${scopes.join(',')}`;
      if (!cache.has(key)) cache.set(key, await makeToken(owner === 'admin' ? admin : member.token, scopes));
      return cache.get(key)!;
    };
    for (const [name, op] of all) {
      if (op.auth === 'none') continue;
      // Member-only operations are tried with a member's token; the rest with an administrator's.
      const owner = op.auth === 'member' ? 'member' : 'admin';
      const ownScopes = owner === 'admin' ? [...SCOPES] : SCOPES.filter((s) => s !== 'admin' && s !== 'sites:deploy');
      const need = needed(op);
      const body = op.method === 'GET' ? undefined : {};
      if (op.scope === 'public') {
        const r = await call(op.method, urlOf(op), { token: await tokenOf(owner, ['account:read']), body });
        expect([name, r.status]).toEqual([name, 200]);
        continue;
      }
      const without = ownScopes.filter((s) => (op.scope === 'sites:deploy:{slug}' ? !deployScopes(s) : s !== need));
      const refused = await call(op.method, urlOf(op), { token: await tokenOf(owner, without), body });
      if (op.scope === 'no-token') {
        expect([name, refused.status, refused.json?.code]).toEqual([name, 403, 'forbidden']);
        continue;
      }
      // POST /api/upload names its project in the form: any deploy scope is asked for first.
      const named = op.scope === 'sites:deploy:{slug}' && !op.path.includes('{slug}') ? 'sites:deploy' : need;
      expect([name, refused.status, refused.json?.code, refused.json?.scope]).toEqual([name, 403, 'insufficient_scope', named]);
      expect(refused.json.error).toContain(named);
      const admitted = await call(op.method, urlOf(op), { token: await tokenOf(owner, [need]), body });
      expect([name, admitted.status]).not.toEqual([name, 401]);
      expect([name, admitted.status]).not.toEqual([name, 403]);
    }
  });
});
