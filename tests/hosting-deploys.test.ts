import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedServiceEnv, useFileServer } from './support/file-server';
import { adminToken, previewCookie, site, uploadSite } from './support/hosting';
import { baseUrl, call, randomIp, type CallResult } from './support/http';
import { startInProcess, type InProcessServer } from './support/in-process';
import { TEST_ADMIN_TOKEN } from './support/server';
import { listStoredKeys, openStore } from './support/store';

useFileServer();

const uniqueSlug = () => `d-${randomBytes(5).toString('hex')}`;

describe('GET /api/projects/:slug/deploys and POST …/deploys/:id/activate', () => {
  let slug: string;
  let first: CallResult;
  beforeAll(async () => {
    slug = uniqueSlug();
    first = await uploadSite({ 'index.html': '<p>version one</p>', 'style.css': 'p{color:red}' }, { slug });
  });

  it('every upload is a deploy: the first is live, listed with time, files, size and who', async () => {
    const r = await call('GET', `/api/projects/${slug}/deploys`, { token: await adminToken() });
    expect(r.status).toBe(200);
    expect(r.json.deploys).toHaveLength(1);
    expect(r.json.deploys[0]).toMatchObject({ id: first.json.project.deploy_id, file_count: 2, total_bytes: 30, created_by: 'admin', active: true });
    expect(r.json.deploys[0].url).toMatch(new RegExp(`^/p/${slug}@${first.json.project.deploy_id}/\\?preview=`));
  });

  it("an append is a new live deploy; the old one stays reachable at the administrator's preview link and can be rolled back to", async () => {
    const token = await adminToken();
    const second = await uploadSite({ 'index.html': '<p>version two</p>' }, { slug, append: 'true' });
    expect(second.status).toBe(201);
    expect(second.json.project.deploy_id).not.toBe(first.json.project.deploy_id);
    expect(second.json.project.files.map((f: { path: string }) => f.path)).toEqual(['index.html', 'style.css']);
    expect((await site('GET', `/p/${slug}/`)).text).toContain('version two');

    const list = (await call('GET', `/api/projects/${slug}/deploys`, { token })).json.deploys;
    expect(list.map((d: { active: boolean }) => d.active)).toEqual([true, false]);
    const cookie = await previewCookie(slug, first.json.project.deploy_id);
    const preview = await site('GET', `/p/${slug}@${first.json.project.deploy_id}/`, { cookie });
    expect(preview.text).toContain('version one');
    expect(preview.headers.get('x-robots-tag')).toBe('noindex');
    expect(preview.headers.get('cache-control')).toMatch(/^private/);
    expect((await site('GET', `/p/${slug}@${first.json.project.deploy_id}`, { cookie })).headers.get('location')).toBe(`/p/${slug}@${first.json.project.deploy_id}/`);

    const back = await call('POST', `/api/projects/${slug}/deploys/${first.json.project.deploy_id}/activate`, { token });
    expect(back.status).toBe(200);
    expect(back.json.project.deploy_id).toBe(first.json.project.deploy_id);
    expect((await site('GET', `/p/${slug}/`)).text).toContain('version one');
    expect((await call('GET', '/api/files', { token })).json.projects.find((p: { slug: string }) => p.slug === slug).deploy_id).toBe(first.json.project.deploy_id);
  });

  it('replace=true is a full deploy: only the uploaded files', async () => {
    const r = await uploadSite({ 'index.html': '<p>replaced</p>' }, { slug, replace: 'true' });
    expect(r.status).toBe(201);
    expect(r.json.project.files.map((f: { path: string }) => f.path)).toEqual(['index.html']);
    expect((await site('GET', `/p/${slug}/style.css`)).status).toBe(404);
  });

  it('answers 404 for an unknown deploy, a deploy of another project, an unknown project; 401 without credentials', async () => {
    const token = await adminToken();
    const other = await uploadSite({ 'index.html': 'other' });
    expect((await call('POST', `/api/projects/${slug}/deploys/${other.json.project.deploy_id}/activate`, { token })).status).toBe(404);
    expect((await call('POST', `/api/projects/${slug}/deploys/nope/activate`, { token })).status).toBe(404);
    expect((await call('GET', '/api/projects/no-such-project/deploys', { token })).status).toBe(404);
    expect((await call('GET', `/api/projects/${slug}/deploys`)).status).toBe(401);
    expect((await call('POST', `/api/projects/${slug}/deploys/${first.json.project.deploy_id}/activate`)).status).toBe(401);
    expect((await site('GET', `/p/${slug}@${other.json.project.deploy_id}/index.html`)).status).toBe(404);
  });
});

describe('atomic deploys', () => {
  it('visitors see the previous deploy until the new one is completely stored', async () => {
    const slug = uniqueSlug();
    await uploadSite({ 'index.html': '<p>old</p>' }, { slug });
    const boundary = 'atomicBOUNDARY';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="slug"\r\n\r\n${slug}\r\n--${boundary}\r\nContent-Disposition: form-data; name="append"\r\n\r\ntrue\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="index.html"\r\n\r\n<p>new</p>\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n`;
    const url = new URL('/api/upload', baseUrl());
    const req = request(url, { method: 'POST', headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'X-Forwarded-For': randomIp() }, agent: false });
    const done = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
    });
    req.write(head);
    req.write(randomBytes(64 * 1024));
    // The new index.html is in the store, the upload is not finished: the old page is served.
    await expect.poll(async () => (await listStoredKeys(`files/${slug}/`)).filter((k) => k.endsWith('/index.html')).length, { timeout: 20_000 }).toBe(2);
    expect((await site('GET', `/p/${slug}/`)).text).toContain('old');
    expect((await site('GET', `/p/${slug}/big.bin`)).status).toBe(404);
    req.end(`${randomBytes(1024).toString('hex')}\r\n--${boundary}--\r\n`);
    expect(await done).toBe(201);
    expect((await site('GET', `/p/${slug}/`)).text).toContain('new');
    expect((await site('GET', `/p/${slug}/big.bin`)).status).toBe(200);
  });
});

// A service of its own beside the file's, for its DEPLOY_HISTORY.
describe('DEPLOY_HISTORY', () => {
  let server: InProcessServer;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    env = { ...(await migratedServiceEnv()), DEPLOY_HISTORY: '2' };
    server = await startInProcess(env);
  });
  afterAll(() => server?.stop());

  const up = (files: Record<string, string>, fields: Record<string, string>) => uploadSite(files, fields, server.url);
  const deploys = async (slug: string) => (await call('GET', `/api/projects/${slug}/deploys`, { base: server.url, token: TEST_ADMIN_TOKEN })).json.deploys as { id: string; active: boolean }[];
  const stored = async (slug: string) => (await openStore(env, server.dataDir).list(`files/${slug}/`)).map((o) => o.key).sort();
  const sharedCss = `body{margin:0}${'.a{color:red}'.repeat(40)}`;

  it('prunes deploys past the limit with the objects no kept deploy uses, and keeps shared ones', async () => {
    const slug = uniqueSlug();
    const v1 = await up({ 'index.html': '<p>v1</p>', 'shared.css': sharedCss }, { slug });
    const cssKey = (await stored(slug)).find((k) => k.endsWith('/shared.css') && !k.includes('~'))!;
    await up({ 'index.html': '<p>v2</p>' }, { slug, append: 'true' });
    await up({ 'extra.txt': 'v3' }, { slug, append: 'true' });
    const kept = await deploys(slug);
    expect(kept).toHaveLength(2);
    expect(kept.map((d) => d.id)).not.toContain(v1.json.project.deploy_id);
    const keys = await stored(slug);
    // v1's index.html is gone; shared.css (and its compressed copies) is still used by v2 and v3.
    expect(keys.filter((k) => k.endsWith('/index.html'))).toHaveLength(1);
    expect(keys).toContain(cssKey);
    expect(keys.filter((k) => k.endsWith('/shared.css'))).toHaveLength(3);
    expect((await call('GET', `/p/${slug}/shared.css`, { base: server.hostedUrl! })).text).toBe(sharedCss);
  });

  it('never prunes the live deploy, and leaves nothing orphaned after a rollback and a replace', async () => {
    const slug = uniqueSlug();
    await up({ 'index.html': '<p>v1</p>' }, { slug });
    const v2 = await up({ 'index.html': '<p>v2</p>', 'b.css': sharedCss }, { slug, append: 'true' });
    await up({ 'index.html': '<p>v3</p>' }, { slug, append: 'true' });
    const r = await call('POST', `/api/projects/${slug}/deploys/${v2.json.project.deploy_id}/activate`, { base: server.url, token: TEST_ADMIN_TOKEN });
    expect(r.status).toBe(200);
    await up({ 'index.html': '<p>v4</p>' }, { slug, replace: 'true' });
    const kept = await deploys(slug);
    expect(kept).toHaveLength(2);
    expect(kept[0].active).toBe(true);
    // v4 and v3 are kept: v4 has index.html; v3 has index.html and b.css (with copies).
    const keys = await stored(slug);
    expect(keys.filter((k) => k.endsWith('/index.html'))).toHaveLength(2);
    expect(keys.filter((k) => k.endsWith('/b.css'))).toHaveLength(3);
    await call('DELETE', `/api/projects/${slug}`, { base: server.url, token: TEST_ADMIN_TOKEN });
    expect(await stored(slug)).toEqual([]);
  });

  it('DELETE /api/files/:id removes the file from every deploy holding its object, and the object (issue 39, item 10 b)', async () => {
    const slug = uniqueSlug();
    const v1 = await up({ 'index.html': '<p>v1</p>', 'keep.txt': 'kept' }, { slug });
    const v2 = await up({ 'index.html': '<p>v2</p>' }, { slug, append: 'true' });
    const file = v2.json.project.files.find((f: { path: string }) => f.path === 'keep.txt');
    expect((await call('DELETE', `/api/files/${file.id}`, { base: server.url, token: TEST_ADMIN_TOKEN })).status).toBe(204);
    // The older deploy's preview (and a rollback to it) served the deleted file until issue 39.
    expect((await stored(slug)).filter((k) => k.endsWith('/keep.txt'))).toHaveLength(0);
    expect((await call('GET', `/p/${slug}/keep.txt`, { base: server.hostedUrl! })).status).toBe(404);
    const cookie = await previewCookie(slug, v1.json.project.deploy_id, { base: server.url, hostedBase: server.hostedUrl! });
    const old = await call('GET', `/p/${slug}@${v1.json.project.deploy_id}/keep.txt`, { base: server.hostedUrl!, cookie });
    expect(old.status).toBe(404);
    expect((await call('GET', `/p/${slug}@${v1.json.project.deploy_id}/`, { base: server.hostedUrl!, cookie })).text).toContain('<p>v1</p>');
  });
});
