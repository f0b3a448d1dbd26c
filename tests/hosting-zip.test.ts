import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminToken, site } from './support/hosting';
import { call } from './support/http';
import { listStoredKeys } from './support/store';
import { makeZip, type ZipEntry } from './support/zip';

useFileServer();

const uniqueSlug = () => `z-${randomBytes(5).toString('hex')}`;

async function uploadZip(zip: Buffer, fields: Record<string, string> = {}, name = 'site.zip') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(zip)]), name);
  return call('POST', '/api/upload', { token: await adminToken(), raw: form });
}

describe('POST /api/upload — one .zip', () => {
  it('is unpacked into a deploy, its common top folder stripped, UTF-8 names kept', async () => {
    const zip = makeZip([
      { name: 'dist/', data: '' },
      { name: 'dist/index.html', data: '<h1>from a zip</h1>' },
      { name: 'dist/css/app.css', data: 'h1{color:red}' },
      { name: 'dist/café.txt', data: 'ok', store: true },
    ]);
    const r = await uploadZip(zip, { slug: uniqueSlug() });
    expect(r.status).toBe(201);
    expect(r.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['café.txt', 'css/app.css', 'index.html']);
    expect((await site('GET', `/p/${r.json.project.slug}/`)).text).toContain('from a zip');
    expect((await site('GET', `/p/${r.json.project.slug}/css/app.css`)).text).toBe('h1{color:red}');
  });

  it('leaves out what a folder upload leaves out, says so, and serves none of it', async () => {
    const zip = makeZip([
      { name: 'dist/index.html', data: '<h1>app</h1>' },
      { name: 'dist/.git/config', data: '[remote "origin"]\n\turl = https://token@example.com/x.git' },
      { name: 'dist/.env', data: 'SECRET=1' },
      { name: 'dist/.env.production', data: 'SECRET=2' },
      { name: 'dist/node_modules/left-pad/index.js', data: 'module.exports = 1' },
      { name: 'dist/.well-known/security.txt', data: 'Contact: x' },
      { name: 'dist/.DS_Store', data: 'junk' },
      { name: '__MACOSX/dist/._index.html', data: 'fork' },
    ]);
    const r = await uploadZip(zip, { slug: uniqueSlug() });
    expect(r.status).toBe(201);
    const slug = r.json.project.slug;
    expect(r.json.skipped.sort()).toEqual(['dist/.env', 'dist/.env.production', 'dist/.git/config', 'dist/node_modules/left-pad/index.js']);
    expect(r.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['.well-known/security.txt', 'index.html']);
    for (const path of ['.git/config', '.env', 'node_modules/left-pad/index.js', '.DS_Store']) expect((await site('GET', `/p/${slug}/${path}`)).status, path).toBe(404);
    expect((await site('GET', `/p/${slug}/.well-known/security.txt`)).text).toBe('Contact: x');
    expect(await listStoredKeys(`files/${slug}`)).toHaveLength(2);
  });

  it('keeps private entries with dotfiles=true, as a folder upload does with its checkbox', async () => {
    const r = await uploadZip(makeZip([{ name: 'index.html', data: 'x' }, { name: '.env', data: 'A=1' }, { name: 'node_modules/a.js', data: '1' }]), { slug: uniqueSlug(), dotfiles: 'true' });
    expect(r.status).toBe(201);
    expect(r.json.skipped).toEqual([]);
    expect(r.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['.env', 'index.html', 'node_modules/a.js']);
    expect((await site('GET', `/p/${r.json.project.slug}/.env`)).text).toBe('A=1');
  });

  it('answers 400 naming what it left out when nothing else is in the zip', async () => {
    const slug = uniqueSlug();
    const r = await uploadZip(makeZip([{ name: '.env', data: 'A=1' }]), { slug });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain('.env');
    expect(await listStoredKeys(`files/${slug}`)).toEqual([]);
  });

  it('is stored as a file when other files come with it', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(makeZip([{ name: 'a.txt', data: 'a' }]))]), 'download.zip');
    form.append('file', new Blob(['<p>x</p>']), 'index.html');
    const r = await call('POST', '/api/upload', { token: await adminToken(), raw: form });
    expect(r.status).toBe(201);
    expect(r.json.project.files.map((f: { path: string }) => f.path).sort()).toEqual(['download.zip', 'index.html']);
  });

  const refused: [string, ZipEntry[], string][] = [
    ['zip-slip ../', [{ name: 'ok.html', data: 'x' }, { name: '../../etc/cron.d/evil', data: 'x' }], 'invalid_path'],
    ['an absolute path', [{ name: '/etc/passwd', data: 'x' }], 'invalid_path'],
    ['a drive path', [{ name: 'C:/x.html', data: 'x' }], 'invalid_path'],
    ['a backslash path', [{ name: '..\\evil.html', data: 'x' }], 'invalid_path'],
    ['a symbolic link', [{ name: 'index.html', data: 'x' }, { name: 'link', data: '/etc/passwd', store: true, mode: 0o120777 }], 'invalid_path'],
    ['a reserved name', [{ name: 'CON.html', data: 'x' }], 'invalid_path'],
    ['an entry that expands more than 100×', [{ name: 'bomb.txt', data: Buffer.alloc(4 * 1024 * 1024) }], 'too_large'],
    // Issue 22, item 10: entries of exactly 1 MiB each passed the per-entry check (a 1.1 MB zip became 1 GiB).
    ['entries of exactly 1 MiB that expand more than 100× together', Array.from({ length: 24 }, (_, i) => ({ name: `mib${i}.txt`, data: Buffer.alloc(1024 * 1024) })), 'too_large'],
    ['an entry declaring more than 1 GiB', [{ name: 'big.bin', data: 'x', declaredSize: 2 ** 31 }], 'too_large'],
    ['entries declaring more than 5 GiB in total', Array.from({ length: 6 }, (_, i) => ({ name: `p${i}.bin`, data: 'x', declaredSize: 1024 ** 3 - 1, declaredCompressedSize: 1024 ** 3 - 1 })), 'too_large'],
    ['duplicate paths after case folding', [{ name: 'A.html', data: 'x' }, { name: 'a.html', data: 'y' }], 'duplicate_path'],
  ];
  it.each(refused)('answers 400 for %s and stores nothing', async (_what, entries, code) => {
    const slug = uniqueSlug();
    const r = await uploadZip(makeZip(entries), { slug });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(code);
    expect(r.json.error.length).toBeGreaterThan(10);
    if (_what.includes('in total')) expect(r.json.error).toMatch(/zip expands past/);
    expect((await call('GET', `/api/projects/${slug}/deploys`, { token: await adminToken() })).status).toBe(404);
    expect(await listStoredKeys(`files/${slug}`)).toEqual([]);
  });

  it('answers 400 for more than 10,000 entries', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.txt`, data: '', store: true }));
    const r = await uploadZip(makeZip(entries), { slug: uniqueSlug() });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('too_many_files');
  });

  it('answers 400 for an entry whose data is longer than its header says', async () => {
    const slug = uniqueSlug();
    const r = await uploadZip(makeZip([{ name: 'lie.txt', data: Buffer.alloc(100_000, 65), declaredSize: 10 }]), { slug });
    expect(r.status).toBe(400);
    expect(await listStoredKeys(`files/${slug}`)).toEqual([]);
  });

  it('answers 400 for a file that is not a zip', async () => {
    const r = await uploadZip(Buffer.from('this is not a zip at all'), { slug: uniqueSlug() });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/zip/);
  });
});
