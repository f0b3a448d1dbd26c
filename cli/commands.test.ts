import { describe, expect, it } from 'vitest';
import { COMMON_OPTIONS } from './command';
import { COMMANDS } from './commands';
import { formatSpeed } from '../lib/client/format';
import type { ShareDto } from '../lib/contract/dtos';
import { shareLine } from './commands/shares';
import { parseExpiry, parseMaxDownloads, requirePaths } from './format-args';
import { commandHelp, overview } from './help';
import { exitCode, findCommand, main } from './main';
import { explain } from './messages';
import { ApiError } from '../lib/client/api';

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

describe('CLI messages, for a person', () => {
  const usage = async (argv: string[]) => {
    let error: unknown;
    try {
      await main(argv);
    } catch (e) {
      error = e;
    }
    expect(exitCode(error), String(error)).toBe(2);
    return (error as Error).message;
  };

  it('deploy --help says the default slug is random, not "from the folder"', () => {
    const help = commandHelp(findCommand('deploy')!);
    expect(help).toMatch(/--slug NAME +The site's name in its address \(default: a random name/);
    expect(help).not.toMatch(/from the folder/);
  });

  it('a mistyped option names it and the nearest real one, not node:util parser text', async () => {
    const text = await usage(['share', 'x', '--expire', '7d']);
    expect(text).toMatch(/^htmls share has no option --expire \(did you mean --expires\?\)\./);
    expect(text).not.toMatch(/positional argument|ERR_PARSE_ARGS/);
    expect(await usage(['shares', '--bogus'])).toMatch(/^htmls shares has no option --bogus\.\n/);
    expect(await usage(['share', 'x', '--note'])).toMatch(/^--note needs a value: --note TEXT\./);
    expect(await usage(['shares', '--json=yes'])).toMatch(/^--json takes no value\./);
  });

  it('--password takes no secret as an argument: it says where the password comes from', async () => {
    for (const argv of [
      ['share', '--password=hunter2', 'cli'],
      ['share', '--password', 'hunter2'],
      ['deploy', 'cli', '--password', 'hunter2'],
      ['share-set', 'abc123', '--password', 'hunter2'],
    ]) {
      expect(await usage(argv), argv.join(' ')).toMatch(/--password takes no value: type the password at the prompt .* or set HTMLS_GUEST_PASSWORD/);
    }
    expect(commandHelp(findCommand('share')!)).toMatch(/--password +Ask guests for a password \(typed at a hidden prompt, or HTMLS_GUEST_PASSWORD\)/);
    expect(commandHelp(findCommand('share')!)).toMatch(/--generate-password/);
  });

  it('an expiry already past and a bad --max-downloads are usage errors that say why', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(() => parseExpiry('2025-12-31T23:00:00Z', now)).toThrow(/The expiry "2025-12-31T23:00:00Z" has already passed: give a later time/);
    expect(() => parseExpiry('0m', now)).toThrow(/already passed/);
    expect(parseMaxDownloads('3')).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'many']) expect(() => parseMaxDownloads(bad), bad).toThrow(/--max-downloads takes a whole number of downloads, 1 or more/);
  });

  it('a missing path is named, not a raw ENOENT', async () => {
    expect(() => requirePaths(['cli', 'no/such/thing.txt'])).toThrow(/^No such file or folder: no\/such\/thing\.txt$/);
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open 'gone.txt'"), { code: 'ENOENT', path: 'gone.txt' });
    expect(explain(enoent)).toBe('No such file or folder: gone.txt');
  });

  it("says each thing once, and keeps the server's words where they name the case", () => {
    expect(explain(new ApiError(401, 'wrong_password', 'Wrong password'))).toBe('Wrong password.');
    const only = '"a.txt" is this share\'s only file: delete the share instead';
    expect(explain(new ApiError(409, 'conflict', only))).toBe(only);
    expect(explain(new ApiError(400, 'invalid_request', 'name: too long'))).toBe('The server refused the request as invalid. (name: too long)');
  });

  it('speeds are whole bytes per second, not "206.06060606060606 B/s"', () => {
    expect(formatSpeed(6800 / 33)).toBe('206 B/s');
    expect(formatSpeed(1536)).toBe('1.5 KB/s');
  });

  it('shares: a pending upload shows as pending (not "offline … 0 files"), an expired share as expired', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const base: ShareDto = {
      id: 'abc', note: '', title: 'Shared files', status: 'offline', upload_state: 'pending', expires_at: null, has_password: false, user_id: 'u', username: 'u',
      file_count: 0, total_bytes: 5 * 1024 ** 2, download_count: 0, max_downloads: null, created_at: '2026-01-01T00:00:00Z', url: '/f/abc', received: null, items: [],
    };
    const pending = shareLine({ ...base }, 'http://h', now);
    expect(pending).toMatch(/^abc +pending +5\.0 MB +upload not finished/);
    expect(pending).not.toMatch(/offline|0 files/);
    const expired = shareLine({ ...base, title: 'movie.mp4', status: 'online', upload_state: 'complete', file_count: 1, expires_at: '2025-12-31T00:00:00.000Z' }, 'http://h', now);
    expect(expired).toMatch(/^abc +expired .* 1 file +expired 2025-12-31T00:00:00\.000Z +http:\/\/h\/f\/abc  — movie\.mp4$/);
    const limited = shareLine({ ...base, title: 'a.txt and 1 more', status: 'online', upload_state: 'complete', file_count: 2, max_downloads: 3, download_count: 1, has_password: true }, 'http://h', now);
    expect(limited).toMatch(/^abc +online .* 2 files +no expiry +password +1\/3 downloads +http:\/\/h\/f\/abc  — a\.txt and 1 more$/);
  });
});
