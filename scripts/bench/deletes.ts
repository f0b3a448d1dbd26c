/**
 * Abort and delete at the store's speed (issue 28 item 4): aborting a pending 500-file group, and
 * deleting a member who holds 20 shares of 500 files. Seeded through the upload protocol (so the
 * store holds real multi-part uploads and objects); only the abort and the DELETE are timed.
 */
import { DeleteObjectsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { s3FromEnv } from '../../tests/support/env';
import { s3Client } from '../../tests/support/services';
import { addRow, api, fmt, log, option, quick, request, type BenchContext } from './common';
import { eachPart } from './upload-baselines';

interface InitFile {
  uploadId: string;
  storageKey: string;
}

/** A group of `count` one-byte files with every part stored; completed unless `pending`. */
async function seedGroup(base: string, token: string, count: number, pending: boolean): Promise<string> {
  const body = Buffer.from('x');
  const files = Array.from({ length: count }, (_, i) => ({ clientPath: `f/${String(i).padStart(4, '0')}.bin`, size: 1 }));
  const init = await api(base, 'POST', '/api/shares/upload/init', token, { files });
  const etags = new Map<string, string>();
  await eachPart(count, 1, 16, async (i) => {
    const f = init.files[i] as InitFile;
    const ref = { groupId: init.groupId, uploadId: f.uploadId, storageKey: f.storageKey, partNumber: 1 };
    if (init.mode === 'direct') {
      const signed = await api(base, 'POST', '/api/shares/upload/part-url', token, ref);
      const r = await request(signed.url, { method: 'PUT', headers: { ...(signed.headers ?? {}), 'Content-Length': '1' }, body });
      etags.set(f.uploadId, String(r.headers.etag));
    } else {
      const r = await request(`${base}/api/shares/upload/chunk?${new URLSearchParams({ ...ref, partNumber: '1' })}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Length': '1' },
        body,
      });
      if (r.status !== 200) throw new Error(`chunk: ${r.status} ${r.body}`);
      etags.set(f.uploadId, JSON.parse(r.body.toString()).etag);
    }
  });
  if (!pending) {
    await api(base, 'POST', '/api/shares/upload/complete', token, {
      groupId: init.groupId,
      files: (init.files as InitFile[]).map((f) => ({ uploadId: f.uploadId, storageKey: f.storageKey, parts: [{ partNumber: 1, etag: etags.get(f.uploadId) }] })),
    });
  }
  return init.groupId as string;
}

export async function benchDeletes(ctx: BenchContext): Promise<void> {
  const { base, admin } = ctx;
  // `--delete-shares 4` seeds fewer shares (10,000 one-byte files took 20 minutes on a loaded S3 server).
  const files = option('delete-files', quick ? 100 : 500);
  const shares = option('delete-shares', quick ? 4 : 20);
  const store = ctx.env.STORAGE === 's3' ? 'S3' : 'fs';

  log(`deletes: aborting a ${files}-file group…`);
  const groupId = await seedGroup(base, ctx.member, files, true);
  const t0 = performance.now();
  await api(base, 'POST', '/api/shares/upload/abort', ctx.member, { groupId });
  const abortMs = performance.now() - t0;
  addRow(`abort of a pending ${files}-file group (${store})`, abortMs / 1000, 's', null, '', { max: 5, text: 'goal < 5 s' }, false);

  const seedMember = async () => {
    log(`deletes: seeding a member with ${shares} shares of ${files} files…`);
    const username = `bench-del-${Date.now().toString(36)}`;
    const user = (await api(base, 'POST', '/api/users', admin, { username, password: 'bench-password', quota_bytes: 2 ** 40 })).user;
    const token = (await api(base, 'POST', '/api/auth/login', admin, { username, password: 'bench-password' })).token as string;
    const seeded = performance.now();
    const groups: string[] = [];
    for (let i = 0; i < shares; i++) groups.push(await seedGroup(base, token, files, false));
    log(`  seeded ${fmt(shares * files)} files in ${fmt((performance.now() - seeded) / 1000, 1)} s`);
    return { id: user.id as string, groups };
  };
  const member = await seedMember();
  // On S3 the baseline is the store's own speed: a second member seeded the same way, whose
  // objects the AWS SDK deletes straight from the bucket — each share's listing and its
  // DeleteObjects, as many shares at once as our deletion runs — with no database and no server.
  const twin = ctx.env.STORAGE === 's3' ? await seedMember() : null;
  const t1 = performance.now();
  await api(base, 'DELETE', `/api/users/${member.id}`, admin);
  const deleteMs = performance.now() - t1;
  const baselineMs = twin ? await deleteStraight(ctx, twin.groups) : null;
  addRow(
    `deleting a member with ${shares} shares of ${files} files (${store})`,
    deleteMs / 1000,
    's',
    baselineMs === null ? null : baselineMs / 1000,
    'the AWS SDK deleting the same objects straight from the bucket',
    { max: 10, text: 'goal < 10 s' },
    false,
  );
}

/** Lists each share's prefix and deletes its objects in DeleteObjects batches, 8 shares at once. */
async function deleteStraight(ctx: BenchContext, groups: string[]): Promise<number> {
  const client = s3Client(s3FromEnv()!);
  const Bucket = ctx.env.S3_BUCKET!;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < groups.length) {
        const Prefix = `shared/${groups[next++]}/`;
        const keys: string[] = [];
        let token: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken: token }));
          for (const o of page.Contents ?? []) keys.push(o.Key!);
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        for (let i = 0; i < keys.length; i += 1000) {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
        }
      }
    }),
  );
  const ms = performance.now() - t0;
  client.destroy();
  return ms;
}
