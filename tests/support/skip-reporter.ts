import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Lists every skipped test at the end of the run, with its reason: the `[skipped: …]` that
 * tests/support/requires.ts puts in the name, or the note given to `ctx.skip(note)`. A skip
 * with neither is flagged as having no reason.
 */
export default class SkipReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest) {
    // With -t, every test that does not match is "skipped": nothing worth listing.
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    if (this.filtered) return;
    // One line per reason: a suite skipped for a missing service is one line, not one per test.
    const counts = new Map<string, number>();
    for (const m of modules) {
      const file = path.relative(process.cwd(), m.moduleId);
      for (const t of m.children.allTests('skipped')) {
        const r = t.result();
        const tagged = /^(.*?\[skipped: [^\]]*\])/.exec(t.fullName);
        const line = tagged
          ? `${file} > ${tagged[1]}`
          : `${file} > ${t.fullName} [skipped: ${(r.state === 'skipped' && r.note) || 'no reason given'}]`;
        counts.set(line, (counts.get(line) ?? 0) + 1);
      }
    }
    const lines = [...counts].map(([line, n]) => `  ↓ ${line}${n > 1 ? ` (${n} tests)` : ''}`);
    if (lines.length === 0) return;
    process.stdout.write(`\nSkipped:\n${lines.join('\n')}\n`);
  }
}
