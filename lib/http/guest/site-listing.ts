import 'server-only';
import { formatBytes } from '../../client/format';
import type { FastReply } from '../fast';
import { ICON } from '../guest-page';
import { escapeHtml } from '../../escape-html';
import { PASSWORD_PAGE_CSP } from '../password-page';
import { encodeUrlPath } from '../../paths/relative-path';
import { isHiddenPath } from '../../hosting/resolve-path';
import type { Site } from '../../hosting/site-cache';
import { localeSettings } from '../../env';
import { dirOf, type Locale } from '../../i18n/locales';
import { translator } from '../../i18n/messages';

/**
 * /p/<slug>/ of a project without any HTML page: its files as a list (names are text, never
 * markup), light and dark, instead of a 404, in the visitor's language. Our own page, so it
 * carries our strict CSP.
 */
export function siteListing(site: Site, prefix: string, opts: { locked: boolean; preview: boolean; locale: Locale }): FastReply {
  const t = translator(opts.locale, 'guest', localeSettings());
  const files = [...site.files.values()].filter((f) => site.allowDotfiles || !isHiddenPath(f.path));
  const rows = files
    .map((f) => `<li><a href="${escapeHtml(`${prefix}/${encodeUrlPath(f.path)}`)}">${escapeHtml(f.path)}</a><span>${escapeHtml(formatBytes(f.size))}</span></li>`)
    .join('\n');
  const name = prefix || site.slug;
  const body = `<!doctype html>
<html lang="${opts.locale}" dir="${dirOf(opts.locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${ICON}" type="image/svg+xml">
<title>${escapeHtml(t('listingTitle', { name }))}</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;background:#f4f4f5;color:#18181b}main{max-width:48rem;margin:0 auto;padding:2rem 1rem}
h1{font-size:1.2rem;margin:0 0 .25rem;overflow-wrap:anywhere}p{margin:0 0 1.25rem;color:#52525b;font-size:.9rem}
ul{list-style:none;margin:0;padding:0;background:#fff;border:1px solid #e4e4e7;border-radius:12px}
li{display:flex;justify-content:space-between;gap:1rem;padding:.6rem .9rem;border-top:1px solid #f4f4f5}li:first-child{border-top:0}
a{color:#4338ca;overflow-wrap:anywhere;text-decoration:none}a:hover{text-decoration:underline}a:focus-visible{outline:2px solid #6366f1;outline-offset:2px}
span{color:#71717a;font-size:.85rem;white-space:nowrap}
@media (prefers-color-scheme:dark){body{background:#09090b;color:#f4f4f5}ul{background:#18181b;border-color:#27272a}li{border-color:#27272a}a{color:#a5b4fc}p{color:#a1a1aa}}
</style></head>
<body><main>
<h1><bdi dir="ltr">${escapeHtml(name)}</bdi></h1>
<p>${escapeHtml(t('listing', { count: files.length }))}</p>
<ul>
${rows}
</ul>
</main></body></html>`;
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': opts.locked ? 'private, no-cache' : 'no-cache',
      'Content-Security-Policy': PASSWORD_PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Content-Language': opts.locale,
      Vary: 'Accept-Language, Cookie',
      ...(opts.preview ? { 'X-Robots-Tag': 'noindex' } : {}),
    },
    body,
  };
}
