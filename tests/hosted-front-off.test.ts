/**
 * HOSTED_FRONT=off (issue 44): no front worker; the main thread serves the hosted port itself,
 * with the same answers the front gives (tests/hosted-front.test.ts): pages, compression and
 * If-None-Match, locked pages and their cookies, a change seen at once. The bench's hosted-main
 * rows measure this configuration against the front.
 */
import { describe, expect, it } from 'vitest';
import { frontHits, hostedUrl, innerUrl, serverOutput, useFileServer } from './support/file-server';
import { adminToken, site, uploadSite } from './support/hosting';
import { call, cookieFrom } from './support/http';
import { rawRequest } from './support/raw-http';

useFileServer({ HOSTED_FRONT: 'off' });

describe('HOSTED_FRONT=off', () => {
  it('serves the hosted port from the main thread: no front, no inner listener, and says so', async () => {
    expect(innerUrl()).toBeNull();
    expect(serverOutput()).toMatch(/hosted sites on http:\/\/127\.0\.0\.1:\d+ .*served by the main thread/);
    const page = `<p>${'main thread words '.repeat(200)}</p>`;
    const up = await uploadSite({ 'index.html': page, 'a.css': 'p{}' });
    const slug = up.json.project.slug;
    // The first answer is the full path's, the next ones the reply cache's: the same, each time.
    const first = await site('GET', `/p/${slug}/`, { headers: { 'Accept-Encoding': 'identity' } });
    expect(first.status).toBe(200);
    expect(first.text).toContain(page);
    for (let i = 0; i < 2; i++) {
      const r = await site('GET', `/p/${slug}/`, { headers: { 'Accept-Encoding': 'identity' } });
      expect([r.status, r.text]).toEqual([200, first.text]);
    }
    const br = await rawRequest(hostedUrl(), 'GET', `/p/${slug}/`, [['Accept-Encoding', 'br']]);
    expect([br.status, br.headers['content-encoding']]).toEqual([200, 'br']);
    const etag = br.headers.etag as string;
    const again = await rawRequest(hostedUrl(), 'GET', `/p/${slug}/`, [['Accept-Encoding', 'br'], ['If-None-Match', etag]]);
    expect(again.status).toBe(304);
    expect(frontHits()).toBe(0);
  });

  it('asks for the password, takes an unlock cookie, and refuses it the moment the password changes', async () => {
    const up = await uploadSite({ 'index.html': '<p>main locked</p>' }, { password: 'first-pass' });
    const slug = up.json.project.slug;
    expect((await site('GET', `/p/${slug}/`)).status).toBe(401);
    const unlock = await site('POST', `/p/${slug}/unlock`, { body: { password: 'first-pass' } });
    const cookie = cookieFrom(unlock.cookies, `htmls_project_unlock_${slug}`);
    for (let i = 0; i < 2; i++) expect((await site('GET', `/p/${slug}/`, { cookie })).text).toContain('main locked');
    expect((await site('GET', `/p/${slug}/`)).status).toBe(401);
    await call('PATCH', `/api/projects/${slug}`, { token: await adminToken(), body: { password: 'second-pass' } });
    expect((await site('GET', `/p/${slug}/`, { cookie })).status).toBe(401);
  });
});
