import { chromium, expect, test } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { createMember, createShare } from './support/seed';
import { useConsoleSession } from './support/console-session';
import { ownClientAddress } from './support/client-address';

test.use({ extraHTTPHeaders: ownClientAddress() });

/**
 * Lighthouse (the npm package) in Debian's Chromium, with its default mobile emulation, on the
 * home page, the signed-in /files app and a guest's share page, in light and dark mode (a browser
 * started with --force-dark-mode). Accessibility and best practices must both score at least 95;
 * the scores and every failing audit are printed.
 */
const MIN_SCORE = 95;
const CATEGORIES = ['accessibility', 'best-practices'] as const;

test('Lighthouse: /, /files (its phone tabs), /f/<id> and /r/<id> score at least 95 for accessibility and best practices', async () => {
  test.setTimeout(300_000);
  const base = process.env.E2E_BASE_URL!;
  const member = await createMember('Lighthouse Tester');
  const share = await createShare(member.token, { 'notes/readme.txt': Buffer.from('Hello from the trip'), 'data.bin': Buffer.alloc(4096, 7) }, { note: 'Trip photos' });
  const made = await fetch(`${base}/api/requests`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${member.token}`, 'Content-Type': 'application/json', ...ownClientAddress() },
    body: JSON.stringify({ note: 'Send the raw footage', max_files: 10, allowed_types: ['video/*', '.pdf'] }),
  });
  expect(made.status).toBe(201);
  const { request: fileRequest } = (await made.json()) as { request: { url: string } };
  const pages: { name: string; url: string; headers?: Record<string, string> }[] = [
    { name: '/', url: `${base}/` },
    // The signed-in console: the session cookie goes along with every request. Lighthouse's
    // mobile emulation (412 px) shows the phone layout: each of its three tabs.
    { name: '/files', url: `${base}/files`, headers: { Cookie: `htmls_user_session=${member.token}` } },
    { name: '/files#shares', url: `${base}/files#shares`, headers: { Cookie: `htmls_user_session=${member.token}` } },
    { name: '/files#settings', url: `${base}/files#settings`, headers: { Cookie: `htmls_user_session=${member.token}` } },
    { name: '/files#requests', url: `${base}/files#requests`, headers: { Cookie: `htmls_user_session=${member.token}` } },
    { name: '/f/<id>', url: `${base}/f/${share.id}` },
    { name: '/r/<id>', url: `${base}${fileRequest.url}` },
  ];


  const failures: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    const flags = scheme === 'dark' ? [...CHROMIUM_ARGS, '--force-dark-mode'] : CHROMIUM_ARGS;
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: flags, logLevel: 'silent' });
    try {
      // The browser Lighthouse drives does prefer this colour scheme (Playwright's page emulates
      // light unless told otherwise: the override is cleared to see the browser's own).
      const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      const probe = await cdp.contexts()[0].newPage();
      const session = await probe.context().newCDPSession(probe);
      await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: '' }] });
      expect(await probe.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
      // The console signs in with the cookie and its own storage (lib/client/console-session.ts):
      // seed both in this browser, see the console, and keep them through the audits.
      await useConsoleSession(probe.context(), member);
      await probe.goto(`${base}/files`);
      await expect(probe.getByTestId('signed-in-as')).toHaveText('Lighthouse Tester');
      await probe.close();
      await cdp.close(); // disconnects only: Lighthouse drives the same browser next
      for (const p of pages) {
        const result = await lighthouse(p.url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          ...(p.headers ? { extraHeaders: p.headers, disableStorageReset: true } : {}),
        });
        const lhr = result!.lhr;
        const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c].score ?? 0) * 100));
        console.log(`lighthouse ${scheme.padEnd(5)} ${p.name.padEnd(15)} accessibility ${scores[0]}  best-practices ${scores[1]}`);
        for (const c of CATEGORIES) {
          for (const ref of lhr.categories[c].auditRefs) {
            const audit = lhr.audits[ref.id];
            if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
              console.log(`  ${c}: ${ref.id} — ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
              // Which elements: enough to find them, not the whole report.
              const items = ((audit.details as { items?: { node?: { snippet?: string; explanation?: string } }[] } | undefined)?.items ?? []).slice(0, 5);
              for (const item of items) if (item.node) console.log(`    ${item.node.snippet?.slice(0, 160)} ${item.node.explanation?.split('\n')[1] ?? ''}`);
            }
          }
        }
        CATEGORIES.forEach((c, i) => scores[i] < MIN_SCORE && failures.push(`${scheme} ${p.name} ${c} ${scores[i]}`));
      }
    } finally {
      chrome.kill();
    }
  }
  expect(failures, 'pages scoring below 95').toEqual([]);
});
