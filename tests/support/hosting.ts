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
