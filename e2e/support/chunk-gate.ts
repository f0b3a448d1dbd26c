import type { BrowserContext, Route } from '@playwright/test';

const CHUNK = '**/api/shares/upload/chunk?**';

/**
 * A slow link, made deterministic: the next `allow` proxy parts of the context go through, any
 * later one waits (in `held`) until `allow` is raised or the page goes. `sent` lists each part
 * that went through as "uploadId:partNumber", to check that none was sent twice; `seen` lists
 * every part request the browser made (held ones and, marked "SW", any a service worker made),
 * to tell on a failure whether a part reached the server without passing the gate.
 *
 * Playwright's routing does not see requests a service worker answers or makes itself; a
 * context gated here should be made with `serviceWorkers: 'block'` (the app's worker plays no
 * part in uploads).
 */
export async function gateChunks(context: BrowserContext, allow = 1) {
  const gate = { allow, held: [] as Route[], sent: [] as string[], seen: [] as string[] };
  const part = (url: string) => {
    const q = new URL(url).searchParams;
    return `${q.get('uploadId')}:${q.get('partNumber')}`;
  };
  context.on('request', (r) => {
    if (r.url().includes('/api/shares/upload/chunk?')) gate.seen.push(`${part(r.url())}${r.serviceWorker() ? ' SW' : ''}`);
  });
  await context.route(CHUNK, (route) => {
    if (gate.allow <= 0) return void gate.held.push(route);
    gate.allow--;
    gate.sent.push(part(route.request().url()));
    return route.continue();
  });
  return gate;
}
