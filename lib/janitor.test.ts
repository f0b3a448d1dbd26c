import { afterEach, describe, expect, it, vi } from 'vitest';
import { registerJanitorTask, startJanitor, stopJanitor } from './janitor';
import type { Runtime } from './runtime';

// The stop at shutdown comes before the database closes (server.ts): a janitor run in progress
// must be over by then. It used to go on through its remaining tasks on the closed database
// ("janitor task failed: PGlite is closed" after a test server's stop, CI of 2026-12-07).
afterEach(() => vi.restoreAllMocks());

describe('stopping the janitor', () => {
  it('waits for the task in progress, and runs no task after it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let release!: () => void;
    const inProgress = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    // An embedded database (no lease); the built-in tasks fail on this bare runtime, which is
    // logged and not what this test is about.
    const rt = { env: { janitorIntervalMs: 3_600_000 }, storage: { capabilities: {} }, state: {} } as unknown as Runtime;
    registerJanitorTask(rt, async () => {
      ran.push('slow');
      await inProgress;
    });
    registerJanitorTask(rt, async () => {
      ran.push('after');
    });
    startJanitor(rt);
    await expect.poll(() => ran, { timeout: 30_000 }).toEqual(['slow']);

    let stopped = false;
    const stop = stopJanitor(rt).then(() => (stopped = true));
    // The stop waits on the task: a few turns of the event loop later it has not resolved.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    release();
    await stop;
    expect(ran).toEqual(['slow']);
  });
});
