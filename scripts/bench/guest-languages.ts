/**
 * Issue 40's speed rule: a guest page in any language is as fast as the English one — its first
 * byte within 1.1× and its JavaScript at most 10 KB (gzip) larger. The share page and the request
 * page in English, German and Arabic (by Accept-Language), on the same server, the languages
 * taking turns within each round so a slower moment of the machine falls on all of them. English
 * is measured twice, as `en` and as `en-GB` (the same page): how far apart those two land is the
 * run's noise, the yardstick for the other languages' ratios.
 */
import { gzipSync } from 'node:zlib';
import { addRow, api, download, fmt, median, quick, request, type BenchContext } from './common';

const LANGUAGES = ['en', 'de', 'ar', 'en-GB'] as const;
type Lang = (typeof LANGUAGES)[number];

/** The script chunks a page's HTML loads (`<script src>`), each gzip-compressed, summed, in bytes. */
async function scriptBytes(base: string, html: string): Promise<number> {
  const srcs = [...new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&')))];
  let total = 0;
  for (const src of srcs) {
    const r = await request(new URL(src, base).href);
    if (r.status !== 200) throw new Error(`GET ${src}: ${r.status}`);
    total += gzipSync(r.body).length;
  }
  return total;
}

export async function benchGuestLanguages(ctx: BenchContext): Promise<void> {
  const { share } = await uploadSmallShare(ctx);
  const made = await api(ctx.base, 'POST', '/api/requests', ctx.member, { note: 'Photos from the trip', max_files: 10, allowed_types: ['.pdf', 'image/*'] });
  const pages = [
    { name: 'share page /f/<id>', path: `/f/${share.id as string}` },
    { name: 'request page /r/<id>', path: `/r/${made.request.id as string}` },
  ];
  const rounds = quick ? 30 : 100;
  for (const page of pages) {
    const url = ctx.base + page.path;
    const header = (lang: Lang) => ({ 'Accept-Language': lang, Accept: 'text/html' });
    // Warm: the first renders of each language (its messages precompiled once) are not the steady state.
    for (let i = 0; i < 5; i++) for (const lang of LANGUAGES) await download(url, header(lang));
    const ttfb: Record<Lang, number[]> = { en: [], de: [], ar: [], 'en-GB': [] };
    for (let i = 0; i < rounds; i++) {
      // Each round starts with another language: none always follows the same one.
      for (let k = 0; k < LANGUAGES.length; k++) {
        const lang = LANGUAGES[(i + k) % LANGUAGES.length];
        ttfb[lang].push((await download(url, header(lang))).ttfbMs);
      }
    }
    const js: Record<Lang, number> = { en: 0, de: 0, ar: 0, 'en-GB': 0 };
    const htmlGz: Record<Lang, number> = { en: 0, de: 0, ar: 0, 'en-GB': 0 };
    for (const lang of ['en', 'de', 'ar'] as const) {
      const r = await request(url, { headers: header(lang) });
      if (r.status !== 200) throw new Error(`GET ${page.path} (${lang}): ${r.status}`);
      js[lang] = await scriptBytes(ctx.base, r.body.toString());
      htmlGz[lang] = gzipSync(r.body).length;
    }
    const enTtfb = median(ttfb.en);
    for (const lang of ['de', 'ar'] as const) {
      addRow(`${page.name} first byte, ${lang} (median of ${rounds})`, median(ttfb[lang]), 'ms', enTtfb, 'en, same run', { max: 1.1, text: 'goal ≤ 1.1×' }, false);
    }
    addRow(`${page.name} first byte, en-GB: English again, the noise`, median(ttfb['en-GB']), 'ms', enTtfb, 'en, same run', undefined, false);
    for (const lang of ['de', 'ar'] as const) {
      const kb = js[lang] / 1024;
      const enKb = js.en / 1024;
      addRow(`${page.name} JavaScript (gzip), ${lang}`, kb, 'KB', enKb, 'en', { max: enKb + 10, text: `goal ≤ en + 10 KB (${fmt(enKb + 10, 1)} KB)` }, false);
    }
    // Not the rule's figure, shown beside it: the HTML carries the page's messages (one language).
    for (const lang of ['de', 'ar'] as const) addRow(`${page.name} HTML (gzip), ${lang}`, htmlGz[lang] / 1024, 'KB', htmlGz.en / 1024, 'en', undefined, false);
  }
}

/** A share of one small file, published at once (the one-request upload). */
async function uploadSmallShare(ctx: BenchContext) {
  const r = await request(`${ctx.base}/api/shares/file/notes.txt`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${ctx.member}`, 'Content-Length': '6', Accept: 'application/json' },
    body: Buffer.from('notes\n'),
  });
  if (r.status !== 201) throw new Error(`PUT /api/shares/file/notes.txt: ${r.status} ${r.body.toString().slice(0, 200)}`);
  return JSON.parse(r.body.toString()) as { share: { id: string } };
}
