import 'server-only';
import { createHash } from 'node:crypto';
import { BoundedCache } from '../bounded-cache';
import { AppError } from '../errors';
import { escapeHtml } from '../escape-html';
import type { ShareCard } from './link-preview';

/**
 * The 1200×630 PNG a chat app shows for a share link (og:image): an SVG card rendered by resvg,
 * the renderer the build already uses for the app icons (scripts/icons.mjs). Rendering costs tens
 * of milliseconds of CPU, so it is bounded three ways: one card renders at a time, at most
 * QUEUE more wait (past that 429), and each distinct card renders once while it stays in the cache
 * (keyed by its ETag, the hash of its SVG).
 */
const W = 1200;
const H = 630;
const QUEUE = 4;

const cards = {
  cache: new BoundedCache<string, Buffer>({ maxEntries: 500, maxBytes: 32 * 1024 * 1024, sizeOf: (b) => b.length }),
  tail: Promise.resolve() as Promise<unknown>,
  waiting: 0,
};
const state = () => cards;

const FONT = `font-family="'DejaVu Sans','Liberation Sans',Arial,Helvetica,sans-serif"`;

/** Words into at most `lines` lines of about `width` characters; the last one ends in … when cut. */
function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  const words = text.split(/\s+/).filter(Boolean).flatMap((w) => (w.length > width ? w.match(new RegExp(`.{1,${width}}`, 'g'))! : [w]));
  for (let i = 0; i < words.length; i++) {
    const next = line ? `${line} ${words[i]}` : words[i];
    if (next.length <= width) {
      line = next;
      continue;
    }
    out.push(line);
    line = words[i];
    if (out.length === lines) {
      out[lines - 1] = `${out[lines - 1].slice(0, width - 1)}…`;
      return out;
    }
  }
  if (line) out.push(line);
  return out.length ? out : [''];
}

/** The card as SVG: the same description the page's tags carry, nothing more. */
export function shareCardSvg(card: ShareCard): string {
  const title = wrap(card.title, 26, 2);
  const lines = title.map((t, i) => `<tspan x="80" dy="${i === 0 ? 0 : 84}">${escapeHtml(t)}</tspan>`).join('');
  const glyph =
    '<g transform="translate(80 72) scale(0.1875)"><rect width="512" height="512" rx="112" fill="#fff" fill-opacity="0.16"/><g fill="none" stroke="#fff" stroke-width="44" stroke-linecap="round" stroke-linejoin="round"><path d="M256 312V146"/><path d="M180 218l76-76 76 76"/><path d="M146 286v48a36 36 0 0 0 36 36h148a36 36 0 0 0 36-36v-48"/></g></g>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6366f1"/><stop offset="1" stop-color="#312e81"/></linearGradient></defs>
<rect width="${W}" height="${H}" fill="url(#b)"/>${glyph}
<text x="200" y="128" ${FONT} font-size="34" font-weight="600" fill="#e0e7ff">htmls · shared with you</text>
<text x="80" y="${title.length > 1 ? 300 : 340}" ${FONT} font-size="72" font-weight="700" fill="#fff">${lines}</text>
<text x="80" y="540" ${FONT} font-size="36" fill="#c7d2fe">${escapeHtml(card.description)}</text>
</svg>`;
}

export const cardEtag = (svg: string) => `"${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"`;

/** The PNG of `svg`, from the cache or rendered in turn; 429 when too many wait. */
export async function renderCardPng(svg: string, etag: string): Promise<Buffer> {
  const s = state();
  const hit = s.cache.get(etag);
  if (hit) return hit;
  if (s.waiting >= QUEUE) throw new AppError('rate_limited', 'Too many preview images are being drawn; try again shortly', { 'Retry-After': '1' });
  s.waiting++;
  const run = s.tail.then(async () => {
    try {
      const again = s.cache.get(etag);
      if (again) return again;
      // Loaded on first use: a service that never draws a card never loads the native module.
      const { Resvg } = await import('@resvg/resvg-js');
      const png = Buffer.from(new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render().asPng());
      s.cache.set(etag, png);
      return png;
    } finally {
      s.waiting--;
    }
  });
  s.tail = run.catch(() => {});
  return run;
}
