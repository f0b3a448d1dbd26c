import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { S3_MIN_PART_SIZE } from '../contract/shares';
import type { CopyProbeResult, PresignedPart, StorageDriver } from './types';

const SOURCE_BYTES = Buffer.from('htmls presigned-copy probe\n');

/**
 * Asks the store whether a presigned UploadPart URL can be turned into an UploadPartCopy by
 * adding an unsigned `x-amz-copy-source` header (Ceph radosgw does this; AWS refuses unsigned
 * x-amz-* headers). It presigns a 0-byte part, the one length under which radosgw copies even
 * with the length signed, and sends it with the header pointing at an object it just wrote.
 * Safe only when the store refuses the request (401/403) or ignores the header (the part
 * holds the 0 bytes that were sent); anything else, errors included, is a reason for proxy mode.
 */
export async function probePresignedCopy(
  driver: StorageDriver,
  presignPart: (key: string, uploadId: string, partNumber: number, size: number, expiresIn: number) => Promise<PresignedPart>,
  bucket: string,
): Promise<CopyProbeResult> {
  const prefix = `shared/htmls-copy-probe-${randomBytes(8).toString('hex')}/`;
  const source = `${prefix}source`;
  const target = `${prefix}target`;
  try {
    await driver.put(source, SOURCE_BYTES, { size: SOURCE_BYTES.length });
    const uploadId = await driver.createMultipart(target, { partSize: S3_MIN_PART_SIZE });
    const signed = await presignPart(target, uploadId, 1, 0, 60);
    const answer = await putEmpty(signed.url, {
      ...(signed.headers ?? {}),
      'x-amz-copy-source': `${bucket}/${encodeURI(source)}`,
    });
    const parts = await driver.listParts(target, uploadId).catch(() => []);
    const copied = /CopyPartResult/.test(answer.text) || parts.some((p) => p.size > 0);
    if (copied) {
      return {
        safe: false,
        reason: `the store performed an UploadPartCopy for a presigned part URL carrying an unsigned x-amz-copy-source header (HTTP ${answer.status}), so a member could copy any object the server's key can read`,
      };
    }
    if (answer.status === 401 || answer.status === 403) return { safe: true };
    if (answer.status >= 200 && answer.status < 300) return { safe: true };
    return {
      safe: false,
      reason: `the store answered HTTP ${answer.status} to a presigned part PUT carrying an unsigned x-amz-copy-source header, neither a refusal nor a plain upload`,
    };
  } catch (e) {
    return { safe: false, reason: `the presigned-copy probe failed: ${(e as Error).message}`, transient: true };
  } finally {
    await driver.deletePrefix(prefix).catch(() => {});
  }
}

function putEmpty(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = (u.protocol === 'https:' ? https : http).request(
      u,
      { method: 'PUT', headers: { ...headers, 'Content-Length': '0' }, timeout: 10_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          if (text.length < 4096) text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('the store did not answer in 10 s')));
    req.on('error', reject);
    req.end();
  });
}
