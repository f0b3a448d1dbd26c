import { describe, expect, it } from 'vitest';
import { baseUrl, serverEnv, serverOutput, useFileServer } from './support/file-server';
import { attemptCopyAttack } from './support/copy-attack';
import { call } from './support/http';
import { createMember } from './support/members';
import { testStore } from './support/store';
import { requires } from './support/requires';

useFileServer();

/**
 * The attack review's critical finding: a presigned UploadPart URL that signs only `host` lets
 * its holder add an unsigned `x-amz-copy-source` header, and Ceph radosgw (the S3 server this
 * suite runs against) then copies any object the server's key can read into the attacker's
 * upload. Whatever mode the server picks, the copy must not happen.
 */
describe('POST /api/shares/upload/part-url — unsigned x-amz-copy-source', () => {
  it("a member cannot copy another member's password-protected share, nor an object outside shared/", async () => {
    const r = await attemptCopyAttack(baseUrl(), testStore(), serverEnv().S3_BUCKET ?? 'bucket');
    for (const a of r.answers) expect(a.text).not.toMatch(/CopyPartResult/);
    for (const s of r.storedSizes) for (const n of s.stored) expect(n).toBe(s.declared);
    expect(r.leaked).toEqual([]);
  });

  requires('s3').it('GET /api/shares/upload/capabilities — radosgw fails the boot probe: proxy mode, reason logged', async () => {
    const m = await createMember();
    const caps = await call('GET', '/api/shares/upload/capabilities', { token: m.token });
    expect(caps.json).toMatchObject({ mode: 'proxy', partSize: 50_331_648, parallel: 1 });
    expect(serverOutput()).toMatch(/direct uploads are off: the store performed an UploadPartCopy/);
  });
});
