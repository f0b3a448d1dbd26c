import { TEST_ADMIN_TOKEN } from './server';
import { call, hostedUrl, type CallOptions, type CallResult } from './http';

export type SiteFiles = Record<string, string | Buffer>;

export function siteForm(files: SiteFiles, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [path, content] of Object.entries(files)) {
    form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), path);
  }
  return form;
}

/** The Admin Token itself as a Bearer token (as scripts use it): valid on every test server. */
export const adminToken = async () => TEST_ADMIN_TOKEN;

export async function uploadSite(files: SiteFiles, fields: Record<string, string> = {}, base?: string): Promise<CallResult> {
  return call('POST', '/api/upload', { token: await adminToken(), raw: siteForm(files, fields), base });
}

/** A small site with a sub-folder and relative links. */
export const SAMPLE_SITE: SiteFiles = {
  'site/index.html': '<!doctype html><html><head><title>Home</title><link rel="stylesheet" href="css/app.css"></head><body><h1>Hello</h1><img src="img/dot.svg"><a href="docs/guide.html">Guide</a></body></html>',
  'site/css/app.css': 'h1 { color: rgb(200, 0, 0); }',
  'site/img/dot.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>',
  'site/docs/guide.html': '<html><body><p>Guide</p><a href="../index.html">Home</a></body></html>',
};

/** A request to the hosted origin (the shared server's second listener), where /p/ lives. */
export const site = (method: string, path: string, opts: CallOptions = {}) => call(method, path, { base: hostedUrl(), ...opts });

/**
 * Opens a deploy's preview as the console does (its `url` from the deploy list, then the 303
 * that keeps the grant as a cookie): the Cookie header for that deploy's pages.
 */
export async function previewCookie(slug: string, deployId: string, opts: { base?: string; hostedBase?: string } = {}): Promise<string> {
  const list = await call('GET', `/api/projects/${slug}/deploys`, { token: await adminToken(), base: opts.base });
  const link = (list.json.deploys as { id: string; url: string }[]).find((d) => d.id === deployId)!.url;
  const open = await call('GET', link, { base: opts.hostedBase ?? hostedUrl() });
  if (open.status !== 303) throw new Error(`preview link answered ${open.status}`);
  return open.cookies.map((c) => c.split(';')[0]).join('; ');
}
