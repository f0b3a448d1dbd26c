/**
 * PASSWORD_SCRYPT_LOG_N (lib/auth/passwords.ts): a changed cost leaves every password working,
 * and a member's sign-in stores their hash again at the cost set now — until it does, a wrong
 * password for them takes another time than one for a name that does not exist, which tells
 * names apart. A restart is what changes the setting, so each cost is a service of its own, one
 * after the other on the same data (in this process).
 */
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv } from './support/file-server';
import { call } from './support/http';
import { startInProcess } from './support/in-process';
import { dropTestDatabase } from './support/services';

let env: Record<string, string | undefined> = {};

afterAll(async () => {
  if (env.DATABASE_URL) await dropTestDatabase(env.DATABASE_URL).catch(() => {});
});

/** The stored hash, read from the database of a stopped server. */
async function storedHash(username: string): Promise<string> {
  if (env.DATABASE_URL) {
    const sql = postgres(env.DATABASE_URL, { max: 1 });
    try {
      const [row] = await sql`select password_hash from users where username = ${username}`;
      return row.password_hash as string;
    } finally {
      await sql.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const db = new PGlite(path.join(env.DATA_DIR!, 'pglite'), { extensions: { pg_trgm } });
  try {
    const r = await db.query<{ password_hash: string }>('select password_hash from users where username = $1', [username]);
    return r.rows[0].password_hash;
  } finally {
    await db.close();
  }
}

describe('the scrypt cost setting', () => {
  it('keeps a password made at another cost working, and the sign-in stores it again at the cost set now', { timeout: 180_000 }, async () => {
    env = await migratedServiceEnv();
    const username = `cost${Date.now().toString(36)}`;
    const password = 'a password of some length';
    const a = await startInProcess({ ...env, PASSWORD_SCRYPT_LOG_N: '10' });
    try {
      expect((await call('POST', '/api/auth/register', { base: a.url, body: { username, password } })).status).toBe(201);
    } finally {
      await a.stop();
    }
    expect(await storedHash(username)).toMatch(/^v3:10:/);

    const b = await startInProcess({ ...env, PASSWORD_SCRYPT_LOG_N: '11' });
    try {
      // A wrong password changes nothing.
      expect((await call('POST', '/api/auth/login', { base: b.url, body: { username, password: 'wrong' } })).status).toBe(401);
      expect((await call('POST', '/api/auth/login', { base: b.url, body: { username, password } })).status).toBe(200);
      expect((await call('POST', '/api/auth/login', { base: b.url, body: { username, password } })).status).toBe(200);
    } finally {
      await b.stop();
    }
    expect(await storedHash(username)).toMatch(/^v3:11:/);
  });
});
