import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminToken, SAMPLE_SITE, siteForm, uploadSite, site } from './support/hosting';
import { call } from './support/http';
import { listStoredKeys } from './support/store';

useFileServer();

const uniqueSlug = () => `t-${randomBytes(5).toString('hex')}`;

describe('POST /api/upload', () => {
  it('creates a project with a random 8-character slug, strips the common top folder, keeps sub-folders', async () => {
    const r = await uploadSite(SAMPLE_SITE, { note: 'My site' });
    expect(r.status).toBe(201);
    const p = r.json.project;
    expect(p.slug).toMatch(/^[a-z0-9]{8}$/);
    expect(p).toMatchObject({ note: 'My site', has_password: false, file_count: 4, url: `/p/${p.slug}` });
    expect(p.files.map((f: { path: string }) => f.path).sort()).toEqual(['css/app.css', 'docs/guide.html', 'img/dot.svg', 'index.html']);
    const css = p.files.find((f: { path: string }) => f.path === 'css/app.css');
    expect(css).toMatchObject({ size: SAMPLE_SITE['site/css/app.css'].length, content_type: 'text/css; charset=utf-8', status: 'online', slug: p.slug });
    expect(p.total_bytes).toBe(Object.values(SAMPLE_SITE).reduce((n, c) => n + Buffer.byteLength(c), 0));
    expect(JSON.stringify(r.json)).not.toMatch(/password_hash|storage_key|files\//);
  });

  it('keeps paths when files do not share one top folder', async () => {
    const r = await uploadSite({ 'index.html': '<p>x</p>', 'a/b.txt': 'b' });
    expect(r.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['a/b.txt', 'index.html']);
  });

  it('accepts a typed slug and answers 409 slug_taken for it unless append', async () => {
    const slug = uniqueSlug();
    expect((await uploadSite({ 'index.html': 'v1', 'old.txt': 'old' }, { slug })).status).toBe(201);
    const again = await uploadSite({ 'index.html': 'v2' }, { slug });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('slug_taken');
    const appended = await uploadSite({ 'index.html': 'v2', 'new.txt': 'new' }, { slug, append: 'true' });
    expect(appended.status).toBe(201);
    expect(appended.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['index.html', 'new.txt', 'old.txt']);
    const page = await site('GET', `/p/${slug}/`);
    expect(page.text).toContain('v2');
    // The append is a new deploy; the first one (kept for rollback) still holds the old index.html.
    expect(await listStoredKeys(`files/${slug}/`)).toHaveLength(4);
  });

  it('answers 400 for a malformed slug', async () => {
    for (const slug of ['UPPER', 'has space', 'x'.repeat(65), '../x', 'a/b']) {
      const r = await uploadSite({ 'index.html': 'x' }, { slug });
      expect(r.status, slug).toBe(400);
      expect(r.json.code).toBe('invalid_request');
    }
  });

  it.each([
    ['../evil.html'],
    ['/abs.html'],
    ['C:/x.html'],
    ['a\\b.html'],
    ['a/./b.html'],
    ['a//b.html'],
    ['evil\u202egnp.html'],
    ['CON.html'],
    ['trailing.'],
  ])('answers 400 invalid_path naming %j and stores nothing', async (bad) => {
    const slug = uniqueSlug();
    const r = await uploadSite({ 'ok.html': 'fine', [bad]: 'bad' }, { slug });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('invalid_path');
    expect(r.json.error).toContain('The path');
    expect((await site('GET', `/p/${slug}/ok.html`)).status).toBe(404);
    expect(await listStoredKeys(`files/${slug}/`)).toEqual([]);
  });

  it('answers 400 duplicate_path for the same path twice', async () => {
    const form = new FormData();
    form.append('slug', uniqueSlug());
    form.append('f', new Blob(['a']), 'x/a.txt');
    form.append('f', new Blob(['b']), 'x/a.txt');
    const r = await call('POST', '/api/upload', { token: await adminToken(), raw: form });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('duplicate_path');
  });

  it('answers 400 for no files, a non-multipart body or a slug sent after the files', async () => {
    const token = await adminToken();
    const empty = new FormData();
    empty.append('note', 'x');
    expect((await call('POST', '/api/upload', { token, raw: empty })).status).toBe(400);
    expect((await call('POST', '/api/upload', { token, body: { files: [] } })).status).toBe(400);
    const late = new FormData();
    late.append('f', new Blob(['a']), 'a.txt');
    late.append('slug', uniqueSlug());
    const r = await call('POST', '/api/upload', { token, raw: late });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/before the files/);
  });

  it('answers 401 without credentials and 401 for a member-less forged token', async () => {
    expect((await call('POST', '/api/upload', { raw: siteForm({ 'a.html': 'x' }) })).status).toBe(401);
    expect((await call('POST', '/api/upload', { token: 'forged', raw: siteForm({ 'a.html': 'x' }) })).status).toBe(401);
  });

  it('leaves nothing behind when the body is cut off mid-upload', async () => {
    const slug = uniqueSlug();
    const boundary = 'xyzBOUNDARY';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="slug"\r\n\r\n${slug}\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\n${'a'.repeat(1000)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="b.txt"\r\n\r\n`;
    const r = await call('POST', '/api/upload', {
      token: await adminToken(),
      raw: `${head}${'b'.repeat(5000)}`, // never closed
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(r.status).toBe(400);
    expect((await call('GET', '/api/files', { token: await adminToken() })).json.projects.some((p: { slug: string }) => p.slug === slug)).toBe(false);
    expect(await listStoredKeys(`files/${slug}/`)).toEqual([]);
  });
});

describe('GET /api/files', () => {
  it('lists projects with their file counts (not their files)', async () => {
    const up = await uploadSite({ 'index.html': 'x' }, { note: 'listed' });
    const r = await call('GET', '/api/files', { token: await adminToken() });
    expect(r.status).toBe(200);
    const p = r.json.projects.find((x: { slug: string }) => x.slug === up.json.project.slug);
    expect(p).toMatchObject({ note: 'listed', file_count: 1 });
    expect(p).not.toHaveProperty('files');
  });

  it('answers 401 without credentials', async () => {
    expect((await call('GET', '/api/files')).status).toBe(401);
  });
});

describe('PATCH /api/status', () => {
  it('sets a file offline and online again', async () => {
    const up = await uploadSite({ 'index.html': '<p>hi</p>', 'b.txt': 'b' });
    const slug = up.json.project.slug;
    const file = up.json.project.files.find((f: { path: string }) => f.path === 'b.txt');
    const token = await adminToken();
    const off = await call('PATCH', '/api/status', { token, body: { id: file.id, status: 'offline' } });
    expect(off.status).toBe(200);
    expect(off.json.file).toMatchObject({ id: file.id, status: 'offline' });
    expect((await site('GET', `/p/${slug}/b.txt`)).status).toBe(404);
    await call('PATCH', '/api/status', { token, body: { id: file.id, status: 'online' } });
    expect((await site('GET', `/p/${slug}/b.txt`)).status).toBe(200);
  });

  it('answers 400 for a bad status or id, 404 for an unknown id, 401 without credentials', async () => {
    const token = await adminToken();
    expect((await call('PATCH', '/api/status', { token, body: { id: 'x', status: 'online' } })).status).toBe(400);
    const up = await uploadSite({ 'a.html': 'x' });
    const id = up.json.project.files[0].id;
    expect((await call('PATCH', '/api/status', { token, body: { id, status: 'deleted' } })).status).toBe(400);
    expect((await call('PATCH', '/api/status', { token, body: { id: '00000000-0000-4000-8000-000000000000', status: 'online' } })).status).toBe(404);
    expect((await call('PATCH', '/api/status', { body: { id, status: 'online' } })).status).toBe(401);
  });
});

describe('PATCH /api/projects/:slug', () => {
  it('changes the note, sets and clears the password', async () => {
    const up = await uploadSite({ 'index.html': 'x' });
    const slug = up.json.project.slug;
    const token = await adminToken();
    const r = await call('PATCH', `/api/projects/${slug}`, { token, body: { note: 'new note', password: 'sesame-123' } });
    expect(r.status).toBe(200);
    expect(r.json.project).toMatchObject({ slug, note: 'new note', has_password: true });
    expect((await site('GET', `/p/${slug}/`)).status).toBe(401);
    const cleared = await call('PATCH', `/api/projects/${slug}`, { token, body: { password: null } });
    expect(cleared.json.project.has_password).toBe(false);
    expect((await site('GET', `/p/${slug}/`)).status).toBe(200);
    await call('PATCH', `/api/projects/${slug}`, { token, body: { password: 'again-123' } });
    expect((await call('PATCH', `/api/projects/${slug}`, { token, body: { password: '' } })).json.project.has_password).toBe(false);
  });

  it('answers 404 for an unknown project, 400 for wrong types, 401 without credentials', async () => {
    const token = await adminToken();
    expect((await call('PATCH', '/api/projects/nope-nope', { token, body: { note: 'x' } })).status).toBe(404);
    const up = await uploadSite({ 'index.html': 'x' });
    expect((await call('PATCH', `/api/projects/${up.json.project.slug}`, { token, body: { note: 5 } })).status).toBe(400);
    expect((await call('PATCH', `/api/projects/${up.json.project.slug}`, { body: { note: 'x' } })).status).toBe(401);
  });
});

describe('DELETE /api/projects/:slug and /api/files/:id', () => {
  it('deletes a file and its bytes, then the project and all its bytes', async () => {
    const up = await uploadSite({ 'index.html': 'x', 'b.txt': 'b' });
    const slug = up.json.project.slug;
    const token = await adminToken();
    const b = up.json.project.files.find((f: { path: string }) => f.path === 'b.txt');
    expect((await call('DELETE', `/api/files/${b.id}`, { token })).status).toBe(204);
    expect((await site('GET', `/p/${slug}/b.txt`)).status).toBe(404);
    expect(await listStoredKeys(`files/${slug}/`)).toHaveLength(1);
    expect((await call('DELETE', `/api/files/${b.id}`, { token })).status).toBe(404);
    expect((await call('DELETE', `/api/projects/${slug}`, { token })).status).toBe(204);
    expect((await site('GET', `/p/${slug}/`)).status).toBe(404);
    expect(await listStoredKeys(`files/${slug}/`)).toEqual([]);
    expect((await call('DELETE', `/api/projects/${slug}`, { token })).status).toBe(404);
  });

  it('answers 401 without credentials and 404 for malformed ids', async () => {
    expect((await call('DELETE', '/api/projects/whatever')).status).toBe(401);
    expect((await call('DELETE', '/api/files/not-a-uuid', { token: await adminToken() })).status).toBe(404);
  });
});
