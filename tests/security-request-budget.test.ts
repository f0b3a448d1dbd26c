/**
 * One address's flood of pages and API calls (issue 39, item 8): 150–180 small anonymous
 * requests a second slowed everyone's downloads 100–1,000×. Each address now has a request budget
 * taken in memory before any database work; past it the answer is an immediate 429 with
 * Retry-After, other addresses are untouched, and byte streams (share items) never count.
 * The same holds per principal: one member's session or token sending from many addresses (the
 * review's share-password PATCH flood) spends one budget.
 * The budgets here are 2 a second (a burst of 20) so the floods are short; the default is 30.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call, randomIp } from './support/http';
import { createMember } from './support/members';
import { uploadShare } from './support/shares';

// Next's pages: the share page.
useFileServer({ REQUESTS_PER_SECOND_PER_IP: '2', REQUESTS_PER_SECOND_PER_PRINCIPAL: '2' }, { pages: true });

describe('the per-address request budget', () => {
  it('refuses one address past its budget at once, serves another, and never counts its downloads', async () => {
    const m = await createMember();
    const body = randomBytes(200_000);
    const { share } = await uploadShare(m.token, { 'clip.bin': body });
    expect(share).toBeTruthy();
    await call('PATCH', `/api/shares/${share.id}`, { token: m.token, body: { online: true } });

    const flooder = '10.200.0.7';
    const answers = await Promise.all(Array.from({ length: 60 }, () => call('GET', '/api/auth/check', { ip: flooder })));
    const refused = answers.filter((a) => a.status === 429);
    // The burst (20, plus what refilled meanwhile) went through; the rest were refused.
    expect(answers.length - refused.length).toBeGreaterThanOrEqual(20);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].json).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Pages count too: a burst of page loads from an address of its own is cut at its budget
    // (a burst, not one late request: on a loaded machine the budget refills meanwhile).
    const pages = await Promise.all(Array.from({ length: 40 }, () => call('GET', `/f/${share.id}`, { ip: '10.200.0.9' })));
    expect(pages.filter((p) => p.status === 429).length).toBeGreaterThan(0);
    expect(pages.filter((p) => p.status === 200).length).toBeGreaterThanOrEqual(20);

    // Another address is untouched.
    expect((await call('GET', `/f/${share.id}`, { ip: '10.200.0.8' })).status).toBe(200);
    // The flooding address still gets its bytes: downloads have their own slots.
    const item = await fetch(`${baseUrl()}/f/${share.id}/clip.bin`, { headers: { 'X-Forwarded-For': flooder } });
    expect(item.status).toBe(200);
    expect(Buffer.from(await item.arrayBuffer()).equals(body)).toBe(true);
  });
});

describe('the per-principal request budget', () => {
  it("refuses one member's token flooding from many addresses, before its password PATCHes hash; another member goes on", async () => {
    const m = await createMember();
    const other = await createMember();
    const { share } = await uploadShare(m.token, { 'a.bin': randomBytes(100) });
    const { share: theirs } = await uploadShare(other.token, { 'b.bin': randomBytes(100) });
    // Each request from an address of its own: the per-address budget never sees two.
    const flood = await Promise.all(Array.from({ length: 60 }, () => call('GET', `/api/shares/${share.id}`, { token: m.token, ip: randomIp() })));
    const refused = flood.filter((a) => a.status === 429);
    // The burst of 20, less what the member's upload took of it (its init and complete).
    expect(flood.length - refused.length).toBeGreaterThanOrEqual(15);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0].json).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('sign-in') });
    expect(Number(refused[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The review's flood: share-password PATCHes from many addresses. The budget the GET flood
    // spent refills at 2 a second, so a few may pass meanwhile; the rest are refused in memory
    // (the budget's answer, not the database-counted password limit's).
    const patches = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call('PATCH', `/api/shares/${share.id}`, { token: m.token, ip: randomIp(), body: { password: `flood password ${i}` } })),
    );
    const byBudget = patches.filter((p) => p.status === 429 && String(p.json?.error).includes('sign-in'));
    expect(byBudget.length).toBeGreaterThan(patches.length / 2);
    // Another member, from any address, is untouched.
    expect((await call('GET', `/api/shares/${theirs.id}`, { token: other.token, ip: randomIp() })).status).toBe(200);
  });
});
