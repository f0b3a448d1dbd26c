import { describe, expect, it } from 'vitest';
import { principalKeyOf, requestBudget } from './request-budget';

describe('the per-address request budget', () => {
  it('lets a burst through, then refuses with the seconds to wait, and refills with time', () => {
    let t = 0;
    const budget = requestBudget(2, 5, () => t);
    for (let i = 0; i < 5; i++) expect(budget.take('10.0.0.1')).toBe(0);
    expect(budget.take('10.0.0.1')).toBe(1);
    // Another address has its own bucket.
    expect(budget.take('10.0.0.2')).toBe(0);
    t += 500; // one request's worth at 2 a second
    expect(budget.take('10.0.0.1')).toBe(0);
    expect(budget.take('10.0.0.1')).toBeGreaterThan(0);
    t += 60_000; // never more than the burst, however long the pause
    for (let i = 0; i < 5; i++) expect(budget.take('10.0.0.1')).toBe(0);
    expect(budget.take('10.0.0.1')).toBeGreaterThan(0);
  });

  it('is off at 0, and forgets quiet addresses instead of growing without bound', () => {
    const off = requestBudget(0, 0);
    for (let i = 0; i < 1000; i++) expect(off.take('10.0.0.1')).toBe(0);
    let t = 0;
    const budget = requestBudget(1, 1, () => t);
    for (let i = 0; i < 10_000; i++) budget.take(`a${i}`);
    expect(budget.take('a0')).toBeGreaterThan(0);
    t += 2000; // every bucket full again: the next new address sweeps them
    expect(budget.take('new')).toBe(0);
    expect(budget.take('a0')).toBe(0);
  });
});

describe('the per-principal key', () => {
  it('is one short hash per secret, from a Bearer or a session cookie, and never the secret itself', () => {
    const bearer = principalKeyOf({ authorization: 'Bearer htmls_pat_abc123' });
    expect(bearer).toMatch(/^[\w-]{22}$/);
    expect(bearer).not.toContain('abc123');
    expect(principalKeyOf({ authorization: 'bearer   htmls_pat_abc123 ' })).toBe(bearer);
    expect(principalKeyOf({ authorization: 'Bearer htmls_pat_abc124' })).not.toBe(bearer);
    const session = principalKeyOf({ cookie: 'theme=dark; htmls_user_session=s3cr3t' });
    expect(session).toBeDefined();
    expect(principalKeyOf({ cookie: 'htmls_admin_session=s3cr3t' })).toBe(session);
    expect(principalKeyOf({ cookie: 'theme=dark' })).toBeUndefined();
    expect(principalKeyOf({})).toBeUndefined();
  });

  it('made-up keys faster than they refill do not grow the budget without bound', () => {
    const budget = requestBudget(1, 10, () => 0);
    // 25,000 keys at one instant: none refills, so only the oldest-half eviction bounds the map.
    for (let i = 0; i < 25_000; i++) budget.take(`k${i}`);
    // The newest keys are still counted: a second burst from one of them runs out.
    for (let i = 0; i < 9; i++) expect(budget.take('k24999')).toBe(0);
    expect(budget.take('k24999')).toBeGreaterThan(0);
  });
});
