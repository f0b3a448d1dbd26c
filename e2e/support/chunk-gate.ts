import type { BrowserContext, Route } from '@playwright/test';

const CHUNK = '**/api/shares/upload/chunk?**';

/**
 * A slow link, made deterministic: the next `allow` proxy parts of the context go through, any
 * later one waits (in `held`) until `allow` is raised or the page goes. `sent` lists each part
 * that went through as "uploadId:partNumber", to check that none was sent twice.
 */
export async function gateChunks(context: BrowserContext, allow = 1) {
  const gate = { allow, held: [] as Route[], sent: [] as string[] };
  await context.route(CHUNK, (route) => {
    if (gate.allow <= 0) return void gate.held.push(route);
    gate.allow--;
    const q = new URL(route.request().url()).searchParams;
    gate.sent.push(`${q.get('uploadId')}:${q.get('partNumber')}`);
    return route.continue();
  });
  return gate;
}
