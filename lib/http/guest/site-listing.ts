import 'server-only';
import { formatBytes } from '../../client/format';
import type { FastReply } from '../fast';
import { ICON } from '../guest-page';
import { escapeHtml } from '../../escape-html';
import { PASSWORD_PAGE_CSP } from '../password-page';
import { encodeUrlPath } from '../../paths/relative-path';
import { isHiddenPath } from '../../hosting/resolve-path';
import type { Site } from '../../hosting/site-cache';

/**
 * /p/<slug>/ of a project without any HTML page: its files as a list (names are text, never
 * markup), light and dark, instead of a 404. Our own page, so it carries our strict CSP.
 */
export function siteListing(site: Site, prefix: string, opts: { locked: boolean; preview: boolean }): FastReply {
  const files = [...site.files.values()].filter((f) => site.allowDotfiles || !isHiddenPath(f.path));
  const rows = files
    .map((f) => `<li><a href="${escapeHtml(`${prefix}/${encodeUrlPath(f.path)}`)}">${escapeHtml(f.path)}</a><span>${escapeHtml(formatBytes(f.size))}</span></li>`)
    .join('\n');
  const title = escapeHtml(prefix || site.slug);
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="${ICON}" type="image/svg+xml">
<title>${title} · files</title>
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
<h1>${title}</h1>
<p>${listingSentence(files.length)}</p>
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
      ...(opts.preview ? { 'X-Robots-Tag': 'noindex' } : {}),
    },
    body,
  };
}

/** "here are its 1 file" read wrong: one file is "its file", more are "its N files". */
export const listingSentence = (n: number) => `This site has no HTML page, so here ${n === 1 ? 'is its file' : `are its ${n} files`}.`;
