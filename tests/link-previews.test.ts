import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { createMember } from './support/members';
import { expireShare, uploadShare } from './support/shares';

/**
 * Link previews of shares (issue 43, item 3; docs/link-previews.md): what a chat app reads when a
 * /f/<id> link is pasted — OpenGraph and Twitter card tags in the page's <head>, the card image,
 * the oEmbed answer — and the generic card of a share that must not reveal itself.
 */
// Next's pages: the share page's card tags.
useFileServer({}, { pages: true });

const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';
const TELEGRAM = 'TelegramBot (like TwitterBot)';
const IMESSAGE = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The page's <head> and the tags an unfurler reads from it (meta property/name → content). */
async function unfurl(path: string, ua = SLACK) {
  const r = await call('GET', path, { headers: { 'User-Agent': ua, Accept: 'text/html' } });
  const head = r.text.slice(0, r.text.indexOf('</head>'));
  const tags: Record<string, string> = {};
  for (const m of head.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"/g)) tags[m[1]] ??= decode(m[2]);
  const oembed = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(head)?.[1];
  return { status: r.status, html: r.text, head, tags, oembed: oembed && decode(oembed) };
}

describe('GET /f/:id — link preview tags', () => {
  it('an open share: title from its note, size, file count and expiry, absolute URLs, a large image card', async () => {
    const owner = await createMember();
    const expires = new Date(Date.now() + 5 * 86_400_000).toISOString();
    const { share } = await uploadShare(owner.token, { 'clips/a.mp4': Buffer.alloc(3 * 1024 * 1024), 'clips/b.txt': Buffer.from('hello') }, { note: 'Holiday clips\nfrom the trip', expires_at: expires });
    const id = share.id as string;
    const { status, tags } = await unfurl(`/f/${id}`);
    expect(status).toBe(200);
    expect(tags['og:title']).toBe('Holiday clips');
    expect(tags['og:description']).toBe(`2 files · 3.0 MB · available until ${expires.slice(0, 10)}`);
    expect(tags['og:url']).toBe(`${baseUrl()}/f/${id}`);
    expect(tags['og:site_name']).toBe('htmls');
    expect(tags['og:image']).toBe(`${baseUrl()}/f/${id}.png`);
    expect(tags['og:image:width']).toBe('1200');
    expect(tags['og:image:height']).toBe('630');
    expect(tags['twitter:card']).toBe('summary_large_image');
    expect(tags['twitter:title']).toBe('Holiday clips');
    expect(tags['twitter:image']).toBe(`${baseUrl()}/f/${id}.png`);
  });

  it('a share without a note is titled by its files; unfurlers Next does not know (Telegram) and iMessage get the tags in <head> too', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'report.pdf': Buffer.from('%PDF-1.4 x') });
    for (const ua of [TELEGRAM, IMESSAGE]) {
      const { tags } = await unfurl(`/f/${share.id}`, ua);
      expect(tags['og:title'], ua).toBe('report.pdf');
      expect(tags['og:description'], ua).toBe('1 file · 10 B');
    }
  });

  it('a locked, an offline and an expired share give the generic card: no name, no size, no image', async () => {
    const owner = await createMember();
    const files = { 'secret-plans.mov': Buffer.alloc(123_456) };
    const locked = (await uploadShare(owner.token, files, { note: 'Merger deck', password: 'correct horse' })).share;
    const offline = (await uploadShare(owner.token, files, { note: 'Merger deck' })).share;
    expect((await call('PATCH', `/api/shares/${offline.id}`, { token: owner.token, body: { status: 'offline' } })).status).toBe(200);
    const expired = (await uploadShare(owner.token, files, { note: 'Merger deck' })).share;
    await expireShare(owner.token, expired.id);

    for (const [share, status] of [[locked, 401], [offline, 404], [expired, 410]] as const) {
      const { status: got, html, tags } = await unfurl(`/f/${share.id}`);
      expect(got).toBe(status);
      expect(tags['og:site_name']).toBe('htmls');
      expect(tags['og:title']).toBeTruthy();
      expect(tags['twitter:card']).toBe('summary');
      expect(tags['og:image']).toBeUndefined();
      for (const leak of ['Merger', 'secret-plans', '120.6 KB', '123456', '1 file']) expect(html, `${status} ${leak}`).not.toContain(leak);
    }
  });

  it('a password share unlocked by a guest still carries only the generic card', async () => {
    const owner = await createMember();
    const { share } = await uploadShare(owner.token, { 'secret-plans.mov': Buffer.alloc(1000) }, { note: 'Merger deck', password: 'correct horse' });
    const unlock = await call('POST', `/f/${share.id}/unlock`, { body: { password: 'correct horse' } });
    expect(unlock.status).toBe(200);
    const cookie = unlock.cookies.map((c) => c.split(';')[0]).join('; ');
    const r = await call('GET', `/f/${share.id}`, { headers: { 'User-Agent': SLACK, Cookie: cookie } });
    expect(r.status).toBe(200);
    const head = r.text.slice(0, r.text.indexOf('</head>'));
    expect(head).toContain('<meta property="og:title" content="Shared files"/>');
    expect(head).not.toContain('secret-plans');
    expect(head).not.toMatch(/og:description" content="[^"]*file/);
  });
});

describe('unfurlers never download', () => {
  it('a Slack, Discord, WhatsApp and iMessage fetch of the page, its card image, an item and the ZIP count nothing and get no file bytes', async () => {
    const owner = await createMember();
    const body = Buffer.from('FILE-BYTES-'.repeat(1000));
    const { share } = await uploadShare(owner.token, { 'a.txt': body });
    const id = share.id as string;
    for (const ua of [SLACK, 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'WhatsApp/2.23.20.0 A', IMESSAGE]) {
      expect((await call('GET', `/f/${id}`, { headers: { 'User-Agent': ua } })).status, ua).toBe(200);
      const image = await call('GET', `/f/${id}.png`, { headers: { 'User-Agent': ua } });
      expect([image.status, image.headers.get('content-type')], ua).toEqual([200, 'image/png']);
      for (const path of [`/f/${id}/a.txt`, `/f/${id}/a.txt?download=1`, `/f/${id}/?zip`]) {
        const r = await call('GET', path, { headers: { 'User-Agent': ua } });
        expect([r.status, r.headers.get('location')], `${ua} ${path}`).toEqual([303, `/f/${id}`]);
        expect(r.text).not.toContain('FILE-BYTES');
      }
    }
    // Then one person downloads it: the count becomes 1 — and stays there, so the fetches above
    // added nothing (counts are written in batches: waiting on the real one covers them too).
    const real = await call('GET', `/f/${id}/a.txt`, { headers: { 'User-Agent': BROWSER } });
    expect([real.status, real.text.length]).toEqual([200, body.length]);
    await expect.poll(async () => (await call('GET', `/api/shares/${id}`, { token: owner.token })).json.share.download_count, { timeout: 15_000, interval: 100 }).toBe(1);
    const after = (await call('GET', `/api/shares/${id}`, { token: owner.token })).json.share;
    expect([after.download_count, after.items[0].download_count]).toEqual([1, 1]);
  });
});

describe('GET /f/:id.png — the card image', () => {
  it('a 1200×630 PNG, cached by ETag (304); a locked or expired share gets the one generic card; a missing or offline one 404', async () => {
    const owner = await createMember();
    const open = (await uploadShare(owner.token, { 'a.txt': Buffer.from('a') }, { note: 'Open card' })).share;
    const r = await fetch(`${baseUrl()}/f/${open.id}.png`);
    const png = Buffer.from(await r.arrayBuffer());
    expect([r.status, r.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(r.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${baseUrl()}/f/${open.id}.png`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect((await fetch(`${baseUrl()}/f/${open.id}.png`, { method: 'HEAD' })).headers.get('etag')).toBe(etag);

    // Two locked shares with different names and sizes draw the very same card: nothing of theirs is in it.
    const a = (await uploadShare(owner.token, { 'alpha-secret.mov': Buffer.alloc(5000) }, { note: 'Alpha', password: 'correct horse' })).share;
    const b = (await uploadShare(owner.token, { 'beta.pdf': Buffer.alloc(9) }, { note: 'Beta', password: 'battery staple' })).share;
    const expired = (await uploadShare(owner.token, { 'gamma.zip': Buffer.alloc(70) }, { note: 'Gamma' })).share;
    await expireShare(owner.token, expired.id);
    const cards = await Promise.all([a, b, expired].map((s) => fetch(`${baseUrl()}/f/${s.id}.png`)));
    expect(cards.map((c) => c.status)).toEqual([200, 200, 200]);
    const tags = cards.map((c) => c.headers.get('etag'));
    expect(new Set(tags).size).toBe(1);
    expect(tags[0]).not.toBe(etag);

    expect((await call('PATCH', `/api/shares/${open.id}`, { token: owner.token, body: { status: 'offline' } })).status).toBe(200);
    const gone = await call('GET', `/f/${open.id}.png`, { headers: { Accept: 'application/json' } });
    expect([gone.status, gone.json?.code]).toEqual([404, 'not_found']);
    expect((await call('GET', '/f/nosuchshare.png', { headers: { Accept: 'application/json' } })).status).toBe(404);
    expect((await call('POST', `/f/${a.id}.png`, { headers: { Accept: 'application/json' } })).status).toBe(405);
  });
});

describe('GET /api/oembed', () => {
  it('the page links its oEmbed; an open share is a link with its card as thumbnail, a locked one the generic card without', async () => {
    const owner = await createMember();
    const open = (await uploadShare(owner.token, { 'a.txt': Buffer.from('abc') }, { note: 'Open card' })).share;
    const { oembed } = await unfurl(`/f/${open.id}`);
    expect(oembed).toBe(`${baseUrl()}/api/oembed?url=${encodeURIComponent(`${baseUrl()}/f/${open.id}`)}&format=json`);
    const r = await call('GET', oembed!.slice(baseUrl().length));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      version: '1.0',
      type: 'link',
      title: 'Open card',
      description: '1 file · 3 B',
      provider_name: 'htmls',
      provider_url: `${baseUrl()}/`,
      cache_age: 300,
      thumbnail_url: `${baseUrl()}/f/${open.id}.png`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
    });

    const locked = (await uploadShare(owner.token, { 'alpha-secret.mov': Buffer.alloc(10) }, { note: 'Alpha', password: 'correct horse' })).share;
    const g = await call('GET', `/api/oembed?url=${encodeURIComponent(`${baseUrl()}/f/${locked.id}`)}`);
    expect(g.status).toBe(200);
    expect(g.json.title).toBe('Shared files');
    expect(g.json.thumbnail_url).toBeUndefined();
    expect(g.text).not.toMatch(/Alpha|alpha-secret|10 B/);
  });

  it('400 without a url, with a relative one or another format; 404 for another site, another path of ours, an offline or unknown share', async () => {
    const owner = await createMember();
    const off = (await uploadShare(owner.token, { 'a.txt': Buffer.from('abc') })).share;
    expect((await call('PATCH', `/api/shares/${off.id}`, { token: owner.token, body: { status: 'offline' } })).status).toBe(200);
    const ask = (q: string) => call('GET', `/api/oembed?${q}`);
    const u = (s: string) => `url=${encodeURIComponent(s)}`;
    for (const q of ['', 'format=json', u('/f/abc'), `${u(`${baseUrl()}/f/${off.id}`)}&format=xml`]) {
      const r = await ask(q);
      expect([r.status, r.json?.code], q).toEqual([400, 'invalid_request']);
    }
    for (const target of [`https://evil.example/f/${off.id}`, `${baseUrl()}/files`, `${baseUrl()}/f/${off.id}/a.txt`, `${baseUrl()}/f/${off.id}`, `${baseUrl()}/f/nosuchshare`]) {
      const r = await ask(u(target));
      expect([r.status, r.json?.code], target).toEqual([404, 'not_found']);
      expect(r.text).not.toContain('a.txt');
    }
  });
});
