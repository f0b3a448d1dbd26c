import { beforeAll, describe, expect, it } from 'vitest';
import { useFileServer } from './support/file-server';
import { call, hostedUrl } from './support/http';
import { createMember, type Member } from './support/members';
import { expireShare, uploadShare } from './support/shares';

useFileServer();

let owner: Member;
const html = { Accept: 'text/html' };
const page = (path: string) => call('GET', path, { headers: html });

beforeAll(async () => {
  owner = await createMember();
});

/** What every guest page must have: the shared layout, an explanation, a way home. */
function expectGuestLayout(text: string) {
  expect(text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(text).toContain('prefers-color-scheme:dark');
  // Inline: the hosted origin has no /favicon.ico, and a linked one was a 404 there.
  expect(text).toContain('<link rel="icon" href="data:image/svg+xml,');
  expect(text).not.toMatch(/<link rel="icon" href="\//);
  expect(text).toMatch(/<a href="[^"]*\/">← htmls home<\/a>/);
}

describe('guest pages', () => {
  it('GET /f/:id — a missing share: 404 with an explanation and a link home', async () => {
    const r = await page('/f/doesnotexist');
    expect(r.status).toBe(404);
    expectGuestLayout(r.text);
    expect(r.text).toContain('Nothing here');
    expect(r.text).toContain('ask the person who sent it');
  });

  it('GET /f/:id — an expired share: 410 that says so and what to do', async () => {
    const { share } = await uploadShare(owner.token, { 'a.txt': Buffer.from('a') });
    await expireShare(owner.token, share.id);
    for (const path of [`/f/${share.id}`, `/f/${share.id}/a.txt`]) {
      const r = await page(path);
      expect(r.status).toBe(410);
      expectGuestLayout(r.text);
      expect(r.text).toContain('This link has expired');
      expect(r.text).toContain('Ask them for a new link');
    }
  });

  it('GET /f/:id — an offline share: 404 in the same layout', async () => {
    const { share } = await uploadShare(owner.token, { 'a.txt': Buffer.from('a') });
    await call('PATCH', `/api/shares/${share.id}`, { token: owner.token, body: { status: 'offline' } });
    const r = await page(`/f/${share.id}`);
    expect(r.status).toBe(404);
    expectGuestLayout(r.text);
  });

  it('GET /f/:id — a locked share: the password form in the same layout', async () => {
    const { share } = await uploadShare(owner.token, { 'a.txt': Buffer.from('a') }, { password: 'guest pass 1' });
    const r = await page(`/f/${share.id}`);
    expect(r.status).toBe(401);
    expectGuestLayout(r.text);
    expect(r.text).toMatch(/<form method="post" action="\/f\/[^"]+\/unlock">/);
    expect(r.text).toContain('<label for="password">Password</label>');
    // Named for a person, not by its address.
    expect(r.text).toContain('<p>This shared link is protected.');
    expect(r.text).toContain('<title>This shared link · password required</title>');
    expect(r.text).not.toContain(`/f/${share.id} is protected`);
    const item = await page(`/f/${share.id}/a.txt`);
    expect(item.status).toBe(401);
    expect(item.text).toContain('<p>This shared link is protected.');
  });

  it('GET /p/:slug — a missing site: 404 in the guest layout', async () => {
    const r = await call('GET', '/p/no-such-site-here/', { base: hostedUrl(), headers: html });
    expect(r.status).toBe(404);
    expectGuestLayout(r.text);
  });

  it('GET /f/:id with Accept: application/json — API clients still get the contract error', async () => {
    const r = await call('GET', '/f/doesnotexist', { headers: { Accept: 'application/json' } });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'not_found' });
  });

  it('GET /no/such/page — Next\'s 404 explains and links home', async () => {
    const r = await page('/no/such/page');
    expect(r.status).toBe(404);
    expect(r.text).toContain('Nothing here');
    expect(r.text).toContain('href="/"');
  });
});
