import 'server-only';
import { getEnv, localeSettings } from '../env';
import { backArrow, dirOf, type Locale } from '../i18n/locales';
import { translator } from '../i18n/messages';
import { escapeHtml } from '../escape-html';
import { pickerHtml, type PickerTarget } from './locale-picker';

/**
 * The one layout of the pages guests meet outside the app — password, expired, missing, download
 * limit, offline and other errors: a centred card that fits 320 px, follows the system's dark
 * mode, explains in a sentence and links home. Plain HTML without scripts (the fast paths serve
 * it under a `default-src 'none'` policy).
 */
export type GuestTone = 'lock' | 'clock' | 'missing' | 'limit' | 'offline' | 'error';

const GLYPHS: Record<GuestTone, string> = {
  lock: '<rect x="5" y="11" width="14" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/>',
  clock: '<circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/>',
  missing: '<circle cx="11" cy="11" r="7"/><path d="m20 20-4-4M9 9l4 4M13 9l-4 4"/>',
  limit: '<path d="M12 3v12M7 10l5 5 5-5"/><path d="M5 21h14"/><path d="M4 4l16 16"/>',
  offline: '<path d="M2 8.5a15 15 0 0 1 20 0M5 12a10 10 0 0 1 14 0M8.5 15.5a5 5 0 0 1 7 0"/><circle cx="12" cy="19" r="1"/><path d="M3 3l18 18"/>',
  error: '<circle cx="12" cy="12" r="9"/><path d="M12 7v6M12 16.5v.5"/>',
};

const STYLE = `:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;-webkit-text-size-adjust:100%}
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;min-height:100dvh;display:grid;place-items:center;padding:1rem;background:#fafafa;color:#18181b;line-height:1.5}
main{width:100%;max-width:26rem;background:#fff;border:1px solid #e4e4e7;border-radius:16px;padding:1.5rem;box-shadow:0 1px 3px #0000000f}
.glyph{width:44px;height:44px;border-radius:12px;display:grid;place-items:center;background:#eef2ff;color:#4338ca;margin-bottom:1rem}
.glyph svg{width:24px;height:24px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
h1{font-size:1.25rem;line-height:1.3;margin:0 0 .5rem;overflow-wrap:anywhere}
p{margin:0 0 1rem;color:#52525b;font-size:.95rem;overflow-wrap:anywhere}
label{display:block;font-size:.875rem;font-weight:600;margin-bottom:.35rem}
input{width:100%;min-height:44px;padding:.55rem .75rem;border:1px solid #a1a1aa;border-radius:10px;font:inherit;font-size:1rem;background:inherit;color:inherit}
button,.btn{margin-top:1rem;width:100%;min-height:44px;padding:.6rem;border:0;border-radius:10px;background:#4f46e5;color:#fff;font:inherit;font-weight:600;cursor:pointer}
.btn{display:flex;align-items:center;justify-content:center;text-decoration:none;margin-top:0}
button:hover,.btn:hover{background:#4338ca}:focus-visible{outline:2px solid #6366f1;outline-offset:2px}
.err{background:#fef2f2;color:#b91c1c;border-radius:10px;padding:.5rem .75rem;font-size:.875rem}
.home{margin:1.25rem 0 0;padding-top:1rem;border-top:1px solid #e4e4e7;font-size:.875rem}
a{color:#4338ca;font-weight:600;text-underline-offset:3px}
.home a{display:inline-flex;align-items:center;min-height:44px}
.lang{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-top:.75rem;font-size:.875rem}.lang label{margin:0;font-weight:400;color:#52525b}
.lang select{min-height:44px;padding:.4rem .5rem;border:1px solid #a1a1aa;border-radius:10px;font:inherit;background:inherit;color:inherit;max-width:100%}.lang button{width:auto;margin:0;padding:.5rem 1rem}
@media (prefers-color-scheme:dark){body{background:#09090b;color:#f4f4f5}main{background:#18181b;border-color:#27272a}.glyph{background:#1e1b4b;color:#a5b4fc}p{color:#a1a1aa}input,.lang select{border-color:#52525b}.lang label{color:#a1a1aa}.err{background:#450a0a;color:#fca5a5}.home{border-color:#27272a}a{color:#a5b4fc}}`;

/**
 * The app icon (assets/icon.svg) inline: these pages are served on the hosted origin too, which
 * has no /favicon.ico (it serves only /p/…), so a linked icon was a 404 in every visitor's console.
 */
export const ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><defs><linearGradient id="b" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#6366f1"/><stop offset="1" stop-color="#4338ca"/></linearGradient></defs><rect width="512" height="512" rx="96" fill="url(#b)"/><g fill="none" stroke="#fff" stroke-width="44" stroke-linecap="round" stroke-linejoin="round"><path d="M256 312V146"/><path d="M180 218l76-76 76 76"/><path d="M146 286v48a36 36 0 0 0 36 36h148a36 36 0 0 0 36-36v-48"/></g></svg>',
)}`;

/**
 * What a chat app shows for a link that leads here (locked, expired, offline, missing): the
 * generic card — the page's heading and nothing of the share's own, no image (docs/link-previews.md).
 */
const GENERIC_CARD_TAGS = (heading: string, description: string) =>
  `<meta property="og:site_name" content="htmls"><meta property="og:type" content="website"><meta property="og:title" content="${escapeHtml(heading)}"><meta property="og:description" content="${escapeHtml(description)}"><meta name="twitter:card" content="summary">`;

export interface GuestPageOptions {
  title: string;
  heading: string;
  /** Trusted HTML: callers escape what they interpolate. */
  bodyHtml: string;
  tone: GuestTone;
  /** Defaults to this service's home page. */
  home?: string;
  /** The guest's language (lib/http/locale-of.ts): its lang, direction and words; English without. */
  locale?: Locale;
  /** The language picker's form (lib/http/locale-choice.ts): where it posts and comes back to; none without. */
  picker?: PickerTarget | null;
}

/**
 * Where "home" is: the service's own origin when PUBLIC_URL names it, else `/` — which on the
 * hosted origin redirects there (lib/http/origin.ts).
 */
function homeHref(): string {
  try {
    const env = getEnv();
    return env.hosted.mode !== 'sandbox' && env.publicUrl ? `${env.publicUrl}/` : '/';
  } catch {
    return '/';
  }
}

export function guestPageHtml(opts: GuestPageOptions): string {
  const locale = opts.locale ?? 'en';
  const t = translator(locale, 'guest', localeSettings());
  const dir = dirOf(locale);
  return `<!doctype html>
<html lang="${locale}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex">
<meta name="theme-color" media="(prefers-color-scheme: light)" content="#fafafa"><meta name="theme-color" media="(prefers-color-scheme: dark)" content="#09090b">
<link rel="icon" href="${ICON}" type="image/svg+xml">
<title>${escapeHtml(opts.title)}</title>
${GENERIC_CARD_TAGS(opts.heading, t('cardDescription'))}
<style>${STYLE}</style></head>
<body><main>
<div class="glyph" aria-hidden="true"><svg viewBox="0 0 24 24">${GLYPHS[opts.tone]}</svg></div>
<h1>${escapeHtml(opts.heading)}</h1>
${opts.bodyHtml}
<p class="home"><a href="${escapeHtml(opts.home ?? homeHref())}">${backArrow(locale)} ${escapeHtml(t('home'))}</a></p>
${opts.picker ? pickerHtml(locale, opts.picker) : ''}</main></body></html>`;
}
