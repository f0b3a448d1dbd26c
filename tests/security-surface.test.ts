import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { baseUrl, call } from './support/http';
import { uploadSite } from './support/hosting';
import { createMember } from './support/members';

useFileServer();

// A 1×1 PNG: anything the optimizer would gladly transcode.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('GET /_next/image — the image optimizer is off', () => {
  it('does not transcode a public image on request', async () => {
    const slug = `img${Date.now().toString(36)}`;
    expect((await uploadSite({ 'index.html': '<p>hi</p>', 'dot.png': PNG }, { slug })).status).toBe(201);
    for (const url of [`/p/${slug}/dot.png`, 'https://example.com/a.png']) {
      const res = await fetch(`${baseUrl()}/_next/image?url=${encodeURIComponent(url)}&w=64&q=75`, { headers: { Accept: 'image/webp' } });
      await res.arrayBuffer();
      expect([400, 404]).toContain(res.status);
      expect(res.headers.get('content-type') ?? '').not.toMatch(/^image\//);
    }
  });
});

describe('POST /api/shares/upload/init — look-alike paths', () => {
  it('refuses zero-width and slash look-alike characters with 400 invalid_path', async () => {
    const m = await createMember();
    for (const clientPath of ['invoice\u200b.pdf', 'docs\u2215invoice.pdf', '1\u20442.txt', 'a\ufeffb', 'x\uff0fy']) {
      const r = await call('POST', '/api/shares/upload/init', { token: m.token, body: { files: [{ clientPath, size: 1 }] } });
      expect([r.status, r.json.code]).toEqual([400, 'invalid_path']);
    }
  });
});

describe('the security headers on both request paths (issue 23, item 4)', () => {
  it('the framework-free JSON replies carry nosniff and a Referrer-Policy like the Next routes', async () => {
    const m = await createMember();
    const replies = {
      // A Next route handler.
      next: await call('GET', '/api/shares', { token: m.token }),
      // The chunk upload (before Next): an error, and the one-request upload: a success.
      chunkError: await call('PUT', '/api/shares/upload/chunk?groupId=x&uploadId=y&storageKey=z&partNumber=1', { token: m.token, raw: new Uint8Array(1) }),
      oneRequest: await call('PUT', '/api/shares/file/a.txt', { token: m.token, raw: 'a', headers: { 'Content-Type': 'application/octet-stream' } }),
    };
    expect(replies.chunkError.status).toBe(404);
    expect(replies.oneRequest.status).toBe(201);
    for (const [name, r] of Object.entries(replies)) {
      expect(r.headers.get('x-content-type-options'), name).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), name).toBe('strict-origin-when-cross-origin');
    }
  });
});
