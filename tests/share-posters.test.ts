import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { createMember } from './support/members';
import { tempDir } from './support/server';
import { uploadShare } from './support/shares';

/**
 * Posters, thumbnails and the video card of link previews (issue 43, item 3; docs/link-previews.md):
 * a real H.264 MP4 made by ffmpeg here is shared, the preview worker makes its poster frame (off
 * the request path, by ranged reads: this MP4 keeps its moov atom at the end), and the page's
 * tags, the poster and the player follow the share's lock without ever counting a download.
 */
useFileServer({}, { pages: true });

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const POLL = { timeout: 60_000, interval: 250 };

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

async function unfurl(p: string, headers: Record<string, string> = {}) {
  const r = await call('GET', p, { headers: { 'User-Agent': SLACK, Accept: 'text/html', ...headers } });
  const head = r.text.includes('</head>') ? r.text.slice(0, r.text.indexOf('</head>')) : r.text;
  const tags: Record<string, string> = {};
  for (const m of head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"/g)) tags[m[1]] ??= decode(m[2]);
  return { status: r.status, html: r.text, tags };
}

async function fetchBytes(p: string, headers: Record<string, string> = {}) {
  const res = await fetch(baseUrl() + p, { headers: { 'X-Forwarded-For': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`, ...headers }, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

let mp4: Buffer;
beforeAll(() => {
  const dir = tempDir();
  const out = path.join(dir, 'clip.mp4');
  // Without -movflags +faststart: the moov atom is written at the end of the file.
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', out]);
  mp4 = readFileSync(out);
  expect(mp4.subarray(4, 8).toString()).toBe('ftyp');
  expect(mp4.lastIndexOf(Buffer.from('moov'))).toBeGreaterThan(mp4.indexOf(Buffer.from('mdat')));
});

const downloads = async (token: string, id: string) => {
  const s = (await call('GET', `/api/shares/${id}`, { token })).json.share as { download_count: number; items: { download_count: number }[] };
  return [s.download_count, ...s.items.map((i) => i.download_count)];
};

describe('a single-video share', () => {
  it('gets a poster frame and a duration made once after complete, shown on the page and in its card, with og:video and twitter:player', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'Holiday clip.mp4': mp4 });
    const id = share.id as string;
    const posterUrl = `/f/${id}/Holiday%20clip.mp4?poster`;

    await expect.poll(async () => (await fetchBytes(posterUrl, { 'User-Agent': BROWSER })).status, POLL).toBe(200);
    const poster = await fetchBytes(posterUrl, { 'User-Agent': BROWSER });
    expect(poster.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(poster.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 240]);
    // Cached by its ETag.
    const again = await fetchBytes(posterUrl, { 'If-None-Match': poster.headers.get('etag')! });
    expect(again.status).toBe(304);

    const { status, tags } = await unfurl(`/f/${id}`);
    expect(status).toBe(200);
    expect(tags['og:title']).toBe('Holiday clip.mp4');
    expect(tags['og:image']).toBe(`${baseUrl()}${posterUrl}`);
    expect(tags['og:image:width']).toBe('320');
    expect(tags['og:image:height']).toBe('240');
    expect(tags['og:video']).toBe(`${baseUrl()}/f/${id}/Holiday%20clip.mp4?preview`);
    expect(tags['og:video:type']).toBe('video/mp4');
    expect(tags['twitter:card']).toBe('player');
    expect(tags['twitter:player']).toBe(`${baseUrl()}/f/${id}.player`);
    expect(tags['twitter:player:width']).toBe('320');

    const oembed = await call('GET', `/api/oembed?url=${encodeURIComponent(`${baseUrl()}/f/${id}`)}&format=json`);
    expect([oembed.json.thumbnail_url, oembed.json.thumbnail_width, oembed.json.thumbnail_height]).toEqual([`${baseUrl()}${posterUrl}`, 320, 240]);

    // The guest's page: the thumbnail and the duration in the file list.
    const page = await call('GET', `/f/${id}`, { headers: { 'User-Agent': BROWSER } });
    expect(page.text).toContain(`src="/f/${id}/Holiday%20clip.mp4?poster"`);
    expect(page.text).toContain('0:02');

    // The player a chat app frames: the only framable page, streaming the preview.
    const player = await call('GET', `/f/${id}.player`, { headers: { 'User-Agent': SLACK } });
    expect(player.status).toBe(200);
    expect(player.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(player.text).toContain(`src="/f/${id}/Holiday%20clip.mp4?preview"`);
    expect(player.text).toContain(`poster="/f/${id}/Holiday%20clip.mp4?poster"`);
  });

  it('an unfurler fetching the page, the poster, the player and the card counts no download and gets no file bytes', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'clip.mp4': mp4 });
    const id = share.id as string;
    await expect.poll(async () => (await fetchBytes(`/f/${id}/clip.mp4?poster`)).status, POLL).toBe(200);
    for (const p of [`/f/${id}`, `/f/${id}/clip.mp4?poster`, `/f/${id}.player`, `/f/${id}.png`, `/f/${id}/clip.mp4`, `/f/${id}/clip.mp4?download=1`]) {
      const r = await fetchBytes(p, { 'User-Agent': SLACK });
      expect(r.status, p).toBeLessThan(400);
      expect(r.body.includes(mp4.subarray(0, 64)), p).toBe(false);
    }
    // A guest's browser looking at the poster does not count either.
    await fetchBytes(`/f/${id}/clip.mp4?poster`, { 'User-Agent': BROWSER });
    // Then one real download: the count becomes 1 and stays there.
    const dl = await fetchBytes(`/f/${id}/clip.mp4`, { 'User-Agent': BROWSER });
    expect(dl.body.equals(mp4)).toBe(true);
    await expect.poll(() => downloads(owner.token, id), POLL).toEqual([1, 1]);
  });
});

describe('a locked share', () => {
  it('leaks no poster, no name and no video: generic card for unfurlers, the password page for the poster, 404 for the player', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'merger-secret.mp4': mp4 }, { note: 'Merger deck', password: 'correct horse' });
    const id = share.id as string;
    const unlock = await call('POST', `/f/${id}/unlock`, { body: { password: 'correct horse' } });
    const cookie = unlock.cookies.map((c) => c.split(';')[0]).join('; ');
    // The guest who unlocked it sees the poster, once made…
    await expect.poll(async () => (await fetchBytes(`/f/${id}/merger-secret.mp4?poster`, { Cookie: cookie })).status, POLL).toBe(200);
    const unlocked = await fetchBytes(`/f/${id}/merger-secret.mp4?poster`, { Cookie: cookie });
    expect(unlocked.headers.get('cache-control')).toBe('private, no-cache');

    // …nobody else does.
    const poster = await fetchBytes(`/f/${id}/merger-secret.mp4?poster`, { 'User-Agent': SLACK });
    expect(poster.status).toBe(401);
    expect(poster.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await fetchBytes(`/f/${id}.player`, { 'User-Agent': SLACK })).status).toBe(404);
    for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
      const { html, tags } = await unfurl(`/f/${id}`, headers);
      expect(tags['og:image'] ?? '').not.toContain('poster');
      expect(tags['og:video']).toBeUndefined();
      expect(tags['twitter:player']).toBeUndefined();
      // The card tags (and, for a guest without the cookie, the whole head: the tab of one who
      // unlocked it names the share by design, its card does not).
      const head = html.slice(0, html.indexOf('</head>'));
      const shown = 'Cookie' in headers ? Object.values(tags).join('\n') : head;
      for (const leak of ['merger-secret', 'Merger', '?poster', '.player']) expect(shown, leak).not.toContain(leak);
    }
    expect(await downloads(owner.token, id)).toEqual([0, 0]);
  });
});

describe('an image share', () => {
  it('gets a thumbnail (sharp), shown as the card image; a share of several files keeps the drawn card', async () => {
    const owner = await createMember();
    const png = await sharp({ create: { width: 1600, height: 800, channels: 3, background: '#c00' } }).png().toBuffer();
    const { share } = await uploadShare(owner.token, { 'photo.png': png });
    const id = share.id as string;
    await expect.poll(async () => (await fetchBytes(`/f/${id}/photo.png?poster`)).status, POLL).toBe(200);
    const meta = await sharp((await fetchBytes(`/f/${id}/photo.png?poster`)).body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 640, 320]);
    const { tags } = await unfurl(`/f/${id}`);
    expect(tags['og:image']).toBe(`${baseUrl()}/f/${id}/photo.png?poster`);
    expect(tags['twitter:card']).toBe('summary_large_image');
    expect(tags['og:video']).toBeUndefined();

    const two = (await uploadShare(owner.token, { 'a.png': png, 'b.mp4': mp4 })).share;
    await expect.poll(async () => (await fetchBytes(`/f/${two.id}/b.mp4?poster`)).status, POLL).toBe(200);
    expect((await fetchBytes(`/f/${two.id}/a.png?poster`)).status).toBe(200);
    const multi = await unfurl(`/f/${two.id}`);
    expect(multi.tags['og:image']).toBe(`${baseUrl()}/f/${two.id}.png`);
    expect(multi.tags['og:video']).toBeUndefined();

    // A file removed from the share takes its thumbnail with it.
    expect((await call('DELETE', `/api/shares/${two.id}/items?path=a.png`, { token: owner.token })).status).toBe(204);
    expect((await fetchBytes(`/f/${two.id}/a.png?poster`)).status).toBe(404);
  });

  it('a file with nothing to picture has no poster (404), and a text file never becomes one', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'notes.txt': Buffer.from('hello'), 'broken.mp4': Buffer.alloc(4096) });
    // The worker takes both (the text at once, the broken video after ffmpeg finds nothing).
    await expect.poll(async () => (await fetchBytes(`/f/${share.id}/notes.txt?poster`)).status, POLL).toBe(404);
    expect((await fetchBytes(`/f/${share.id}/broken.mp4?poster`)).status).toBe(404);
    expect((await fetchBytes(`/f/${share.id}/missing.mp4?poster`)).status).toBe(404);
  });
});
