import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS } from './command';
import { COMMANDS } from './commands';
import { parseExpiry } from './format-args';
import { commandHelp, overview } from './help';
import { exitCode, findCommand } from './main';

describe('CLI commands, from their declarations', () => {
  it('each has a unique name, a summary, and options described (no clash with --json/--help)', () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      expect(c.summary.length, c.name).toBeGreaterThan(10);
      for (const [name, o] of Object.entries(c.options)) {
        expect(o.description.length, `${c.name} --${name}`).toBeGreaterThan(5);
        expect(Object.keys(COMMON_OPTIONS)).not.toContain(name);
      }
    }
  });

  it('help lists every declared option of a command, and every command in the overview', () => {
    for (const c of COMMANDS) {
      const help = commandHelp(c);
      for (const name of [...Object.keys(c.options), 'json', 'help']) expect(help, c.name).toContain(`--${name}`);
      expect(overview(COMMANDS)).toContain(`  ${c.name} `);
    }
    expect(commandHelp(findCommand('share-set')!)).toMatch(/--expires WHEN +New expiry/);
  });

  it('reads expiries as durations or times, and refuses the rest as a usage error (exit 2)', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseExpiry('7d', now)).toBe('2026-01-08T00:00:00.000Z');
    expect(parseExpiry('24h', now)).toBe('2026-01-02T00:00:00.000Z');
    expect(parseExpiry('90m', now)).toBe('2026-01-01T01:30:00.000Z');
    expect(parseExpiry('2026-02-01T10:00:00Z', now)).toBe('2026-02-01T10:00:00.000Z');
    let error: unknown;
    try {
      parseExpiry('next week', now);
    } catch (e) {
      error = e;
    }
    expect(exitCode(error)).toBe(2);
  });
});
