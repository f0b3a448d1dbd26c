import type { FastReply } from './fast';
import { escapeHtml } from './html';

/** Our own pages on /p/ and /f/: no script at all, so the strictest policy fits. */
export const PASSWORD_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function passwordPage(opts: {
  status: number;
  title: string;
  action: string;
  next?: string;
  error?: string;
}): FastReply {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)} · password required</title>
<style>
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f4f5;color:#18181b}
main{width:min(24rem,calc(100vw - 2rem));background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:1.5rem;box-shadow:0 1px 2px #0001}
h1{font-size:1.15rem;margin:0 0 .25rem}p{margin:.25rem 0 1rem;color:#52525b;font-size:.9rem;overflow-wrap:anywhere}
label{display:block;font-size:.875rem;font-weight:600;margin-bottom:.35rem}
input{box-sizing:border-box;width:100%;padding:.55rem .7rem;border:1px solid #d4d4d8;border-radius:8px;font-size:1rem;background:inherit;color:inherit}
button{margin-top:1rem;width:100%;padding:.6rem;border:0;border-radius:8px;background:#4f46e5;color:#fff;font-size:.95rem;font-weight:600;cursor:pointer}
button:hover{background:#4338ca}:focus-visible{outline:2px solid #6366f1;outline-offset:2px}
.err{background:#fef2f2;color:#b91c1c;border-radius:8px;padding:.5rem .7rem;font-size:.875rem}
@media (prefers-color-scheme:dark){body{background:#09090b;color:#f4f4f5}main{background:#18181b;border-color:#27272a}p{color:#a1a1aa}input{border-color:#3f3f46}.err{background:#450a0a;color:#fca5a5}}
</style></head>
<body><main>
<h1>Password required</h1>
<p>${escapeHtml(opts.title)} is protected. Enter its password to continue.</p>
${opts.error ? `<p class="err" role="alert">${escapeHtml(opts.error)}</p>` : ''}
<form method="post" action="${escapeHtml(opts.action)}">
${opts.next ? `<input type="hidden" name="next" value="${escapeHtml(opts.next)}">` : ''}
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Unlock</button>
</form>
</main></body></html>`;
  return {
    status: opts.status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': PASSWORD_PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body,
  };
}

export function messagePage(status: number, title: string, message: string): FastReply {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>:root{color-scheme:light dark;font-family:system-ui,sans-serif}body{margin:0;min-height:100vh;display:grid;place-items:center;text-align:center;padding:1rem}h1{font-size:1.25rem}p{color:#71717a}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main></body></html>`;
  return {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': PASSWORD_PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
    },
    body,
  };
}
