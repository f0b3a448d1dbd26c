import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { createMember } from './support/members';
import { uploadShare } from './support/shares';

/**
 * Without ffmpeg (FFMPEG_PATH=off) a video's poster comes from its uploader's browser
 * (docs/link-previews.md): capabilities say so, the worker leaves the video waiting, and
 * POST /api/shares/:id/poster takes one real image per video of one's own share — re-encoded,
 * stored beside it, deleted with it.
 */
useFileServer({ FFMPEG_PATH: 'off' }, { pages: true });

const POLL = { timeout: 60_000, interval: 250 };
const poster = (id: string, path: string) => call('GET', `/f/${id}/${path}?poster`);

describe('POST /api/shares/:id/poster (no ffmpeg)', () => {
  it("takes the uploader's frame once: then the page and the card show it; strangers, non-images and non-videos are refused", async () => {
    const owner = await createMember();
    const caps = await call('GET', '/api/shares/upload/capabilities', { token: owner.token });
    expect(caps.json.videoPosters).toBe('browser');
    // Not a real video: without ffmpeg the server never reads it.
    const { share } = await uploadShare(owner.token, { 'clip.mp4': Buffer.alloc(2048), 'notes.txt': Buffer.from('hi') });
    const id = share.id as string;
    expect((await poster(id, 'clip.mp4')).status).toBe(404);

    const frame = (await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#0a0' } }).jpeg().toBuffer()).toString('base64');
    const other = await createMember();
    const send = (token: string, body: Record<string, unknown>) => call('POST', `/api/shares/${id}/poster`, { token, body });
    expect((await send(other.token, { path: 'clip.mp4', image: frame })).status).toBe(404);
    expect((await send(owner.token, { path: 'clip.mp4', image: Buffer.from('<svg onload=alert(1)>').toString('base64') })).status).toBe(400);
    expect((await send(owner.token, { path: 'clip.mp4', image: 'not base64!' })).status).toBe(400);
    expect((await send(owner.token, { path: 'notes.txt', image: frame })).status).toBe(409);
    expect((await send(owner.token, { path: 'nope.mp4', image: frame })).status).toBe(404);

    expect((await send(owner.token, { path: 'clip.mp4', image: frame, duration_ms: 125_000 })).status).toBe(204);
    await expect.poll(async () => (await poster(id, 'clip.mp4')).status, POLL).toBe(200);
    const r = await fetch(`${baseUrl()}/f/${id}/clip.mp4?poster`);
    const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1280, 720]);
    const page = await call('GET', `/f/${id}`);
    expect(page.text).toContain(`src="/f/${id}/clip.mp4?poster"`);
    expect(page.text).toContain('2:05');
    // Once only.
    expect((await send(owner.token, { path: 'clip.mp4', image: frame })).status).toBe(409);

    // Removed with its video.
    expect((await call('DELETE', `/api/shares/${id}/items?path=clip.mp4`, { token: owner.token })).status).toBe(204);
    expect((await poster(id, 'clip.mp4')).status).toBe(404);
  });
});
