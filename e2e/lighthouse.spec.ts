import { expect, test } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { createMember, createShare } from './support/seed';

/**
 * Lighthouse (the npm package) in Debian's Chromium, with its default mobile emulation, on the
 * home page, the signed-in /files app and a guest's share page. Accessibility and best practices
 * must both score at least 95; the scores and every failing audit are printed.
 */
const MIN_SCORE = 95;
const CATEGORIES = ['accessibility', 'best-practices'] as const;

test('Lighthouse: /, /files and /f/<id> score at least 95 for accessibility and best practices', async () => {
  test.setTimeout(300_000);
  const base = process.env.E2E_BASE_URL!;
  const member = await createMember('Lighthouse Tester');
  const share = await createShare(member.token, { 'notes/readme.txt': Buffer.from('Hello from the trip'), 'data.bin': Buffer.alloc(4096, 7) }, { note: 'Trip photos' });
  const pages: { name: string; url: string; headers?: Record<string, string> }[] = [
    { name: '/', url: `${base}/` },
    // The signed-in console: the session cookie goes along with every request.
    { name: '/files', url: `${base}/files`, headers: { Cookie: `htmls_user_session=${member.token}` } },
    { name: '/f/<id>', url: `${base}/f/${share.id}` },
  ];

  // The cookie does sign in: Lighthouse audits the console itself, not the sign-in form.
  const console_ = await (await fetch(pages[1].url, { headers: pages[1].headers })).text();
  expect(console_).toContain('data-testid="signed-in-as"');

  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent' });
  const failures: string[] = [];
  try {
    for (const p of pages) {
      const result = await lighthouse(p.url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        ...(p.headers ? { extraHeaders: p.headers } : {}),
      });
      const lhr = result!.lhr;
      const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c].score ?? 0) * 100));
      console.log(`lighthouse ${p.name.padEnd(8)} accessibility ${scores[0]}  best-practices ${scores[1]}`);
      for (const c of CATEGORIES) {
        for (const ref of lhr.categories[c].auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
            console.log(`  ${c}: ${ref.id} — ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
          }
        }
      }
      CATEGORIES.forEach((c, i) => scores[i] < MIN_SCORE && failures.push(`${p.name} ${c} ${scores[i]}`));
    }
  } finally {
    chrome.kill();
  }
  expect(failures, 'pages scoring below 95').toEqual([]);
});
