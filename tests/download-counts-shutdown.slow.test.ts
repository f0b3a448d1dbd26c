import { describe, expect, it } from 'vitest';
import { call } from './support/http';
import { migratedServiceEnv } from './support/file-server';
import { startServer, TEST_ADMIN_TOKEN } from './support/server';
import { uploadShare } from './support/shares';

/** Download counts are buffered in the process (lib/shares/count-downloads.ts): a clean stop writes them. */
describe('download counts at shutdown', () => {
  it('a download right before SIGTERM is counted after the restart', { timeout: 180_000 }, async () => {
    const env = await migratedServiceEnv();
    const dataDir = env.DATA_DIR!;
    const a = await startServer({ ...env, DATA_DIR: dataDir });
    const username = `cnt${Date.now().toString(36)}`;
    await call('POST', '/api/users', { base: a.url, token: TEST_ADMIN_TOKEN, body: { username, password: 'long enough', quota_bytes: 1024 ** 3 } });
    const token = (await call('POST', '/api/auth/login', { base: a.url, body: { username, password: 'long enough' } })).json.token;
    const { share } = await uploadShare(token, { 'x.txt': Buffer.from('counted') }, { base: a.url });
    const r = await fetch(`${a.url}/f/${share.id}/x.txt`);
    expect(await r.text()).toBe('counted');
    // Stopped within milliseconds: the one-second flush has not run; the shutdown writes it.
    await a.stop('SIGTERM');
    const b = await startServer({ ...env, DATA_DIR: dataDir });
    try {
      const shares = (await call('GET', '/api/shares', { base: b.url, token })).json.shares as { id: string }[];
      expect(shares).toHaveLength(1);
      const { share: s } = (await call('GET', `/api/shares/${shares[0].id}`, { base: b.url, token })).json;
      expect([s.download_count, s.items[0].download_count]).toEqual([1, 1]);
    } finally {
      await b.stop();
    }
  });
});
