import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { adminToken, site, uploadSite } from './support/hosting';
import { call } from './support/http';

useFileServer();

// Issue 22, finding 8: a hosted file set offline or deleted stayed public at
// /p/<slug>@<old deploy>/secret.txt. Previews of deploys are the administrator's now: the
// console's preview link (a deploy's `url`, signed) opens one deploy for that browser; a guest
// who knows or guesses a deploy id gets 404, as for a deploy that does not exist.
describe('GET /p/<slug>@<deploy>/ — previews of deploys', () => {
  it("a file taken offline or deleted is not public under any deploy's preview; the console's preview link still opens each deploy", async () => {
    const token = await adminToken();
    const slug = `pv-${randomBytes(5).toString('hex')}`;
    const v1 = await uploadSite({ 'index.html': '<p>version one</p>', 'secret.txt': 'the secret' }, { slug });
    const v2 = await uploadSite({ 'extra.html': '<p>two</p>' }, { slug, append: 'true' });
    expect(v2.status).toBe(201);
    const [id1, id2] = [v1.json.project.deploy_id, v2.json.project.deploy_id];
    const secret = v2.json.project.files.find((f: { path: string }) => f.path === 'secret.txt');

    expect((await call('PATCH', '/api/status', { token, body: { id: secret.id, status: 'offline' } })).status).toBe(200);
    expect((await site('GET', `/p/${slug}/secret.txt`)).status).toBe(404);
    for (const id of [id1, id2]) {
      expect((await site('GET', `/p/${slug}@${id}/secret.txt`)).status, id).toBe(404);
      expect((await site('GET', `/p/${slug}@${id}/index.html`)).status, id).toBe(404);
    }
    expect((await call('DELETE', `/api/files/${secret.id}`, { token })).status).toBe(204);
    expect((await site('GET', `/p/${slug}@${id1}/secret.txt`)).status).toBe(404);

    // The console's preview: the link from the deploy list sets a cookie for that deploy only.
    const deploys = (await call('GET', `/api/projects/${slug}/deploys`, { token })).json.deploys as { id: string; url: string }[];
    const link = deploys.find((d) => d.id === id1)!.url;
    expect(link.startsWith(`/p/${slug}@${id1}/?`)).toBe(true);
    const open = await site('GET', link);
    expect(open.status).toBe(303);
    expect(open.headers.get('location')).toBe(`/p/${slug}@${id1}/`);
    expect(open.headers.get('cache-control')).toBe('no-store');
    const cookie = open.cookies.map((c) => c.split(';')[0]).join('; ');
    expect(open.cookies.every((c) => /HttpOnly/.test(c) && c.includes(`Path=/p/${slug}@${id1}`))).toBe(true);
    const page = await site('GET', `/p/${slug}@${id1}/`, { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('version one');
    // Deleted from the live deploy: gone from every deploy that held it, the preview too (issue 39, item 10 b).
    expect((await site('GET', `/p/${slug}@${id1}/secret.txt`, { cookie })).status).toBe(404);
    // Not another deploy, not without the cookie, not a forged or tampered link.
    expect((await site('GET', `/p/${slug}@${id2}/index.html`, { cookie })).status).toBe(404);
    expect((await site('GET', `/p/${slug}@${id1}/index.html`)).status).toBe(404);
    expect((await site('GET', link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).status).toBe(404);
    expect((await site('GET', `/p/${slug}@${id2}/?preview=${link.split('preview=')[1]}`)).status).toBe(404);
  });

  it("a locked project's preview: its password page's language picker posts to the project's /p/<slug>/locale (there is none per deploy)", async () => {
    const token = await adminToken();
    const slug = `pv-${randomBytes(5).toString('hex')}`;
    const id = (await uploadSite({ 'index.html': '<p>locked preview</p>' }, { slug, password: 'open-sesame' })).json.project.deploy_id;
    const link = ((await call('GET', `/api/projects/${slug}/deploys`, { token })).json.deploys as { id: string; url: string }[]).find((d) => d.id === id)!.url;
    const cookie = (await site('GET', link)).cookies.map((c) => c.split(';')[0]).join('; ');
    const pickerAction = (html: string) => /<form class="lang" method="post" action="([^"]*)">/.exec(html)?.[1];
    const gate = await site('GET', `/p/${slug}@${id}/`, { cookie, headers: { Accept: 'text/html' } });
    expect(gate.status).toBe(401);
    expect(gate.text).toContain(`action="/p/${slug}@${id}/unlock"`);
    expect(pickerAction(gate.text)).toBe(`/p/${slug}/locale`);
    const wrong = await site('POST', `/p/${slug}@${id}/unlock`, { cookie, raw: new URLSearchParams({ password: 'nope', next: `/p/${slug}@${id}/` }) });
    expect(wrong.status).toBe(401);
    expect(pickerAction(wrong.text)).toBe(`/p/${slug}/locale`);
  });

  it("the administrator's preview of an older deploy serves no file taken offline or deleted, nor does a rollback to it (issue 39, item 10 b)", async () => {
    const token = await adminToken();
    const slug = `pv-${randomBytes(5).toString('hex')}`;
    const v1 = await uploadSite({ 'index.html': '<p>version one</p>', 'secret.txt': 'the secret' }, { slug });
    const v2 = await uploadSite({ 'extra.html': '<p>two</p>' }, { slug, append: 'true' });
    const id1 = v1.json.project.deploy_id;
    const secret = v2.json.project.files.find((f: { path: string }) => f.path === 'secret.txt');
    const deploys = (await call('GET', `/api/projects/${slug}/deploys`, { token })).json.deploys as { id: string; url: string }[];
    const open = await site('GET', deploys.find((d) => d.id === id1)!.url);
    const cookie = open.cookies.map((c) => c.split(';')[0]).join('; ');
    expect((await site('GET', `/p/${slug}@${id1}/secret.txt`, { cookie })).text).toBe('the secret');

    expect((await call('PATCH', '/api/status', { token, body: { id: secret.id, status: 'offline' } })).status).toBe(200);
    expect((await site('GET', `/p/${slug}@${id1}/secret.txt`, { cookie })).status).toBe(404);
    expect((await site('GET', `/p/${slug}@${id1}/`, { cookie })).text).toContain('version one');
    // Online again: everywhere again.
    expect((await call('PATCH', '/api/status', { token, body: { id: secret.id, status: 'online' } })).status).toBe(200);
    expect((await site('GET', `/p/${slug}@${id1}/secret.txt`, { cookie })).text).toBe('the secret');

    expect((await call('DELETE', `/api/files/${secret.id}`, { token })).status).toBe(204);
    expect((await site('GET', `/p/${slug}@${id1}/secret.txt`, { cookie })).status).toBe(404);
    const listed = (await call('GET', `/api/projects/${slug}/deploys`, { token })).json.deploys as { id: string; file_count: number }[];
    expect(listed.find((d) => d.id === id1)?.file_count).toBe(1);
    expect((await call('POST', `/api/projects/${slug}/deploys/${id1}/activate`, { token })).status).toBe(200);
    expect((await site('GET', `/p/${slug}/secret.txt`)).status).toBe(404);
    expect((await site('GET', `/p/${slug}/`)).text).toContain('version one');
  });
});
