/**
 * htmls — the command-line client. Every command speaks the HTTP contract through
 * lib/client/sdk.ts; `--json` prints machine-readable output.
 *
 *   htmls login [--url URL] [--username NAME] [--admin]
 *   htmls logout | me
 *   htmls share <files or folders…> [--note TEXT] [--expires 7d|24h|ISO] [--password P | --generate-password]
 *   htmls shares
 *   htmls share-set <id> [--offline|--online] [--expires X|--no-expiry] [--password P|--no-password] [--note TEXT]
 *   htmls share-rm <id>
 *   htmls deploy <folder or site.zip> [--slug NAME] [--note TEXT] [--password P] [--append | --replace] [--spa] [--include-dotfiles]
 *   htmls account delete [--yes]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ApiError, configDir, HtmlsClient } from '../lib/client/sdk';
import { formatBytes, formatEta, formatSpeed } from '../lib/client/format';

interface Credentials {
  url: string;
  role: 'admin' | 'member';
  username: string | null;
  /** Only when the OS secret store is unavailable. */
  token?: string;
}

const credFile = () => path.join(configDir(), 'credentials.json');
const hasSecretTool = () => process.env.HTMLS_NO_KEYRING !== '1' && spawnSync('sh', ['-c', 'command -v secret-tool'], { stdio: 'ignore' }).status === 0;

/** Where the token went: the OS secret store, or the 0600 file when there is none. */
function saveCredentials(c: Credentials, token: string): 'keyring' | 'file' {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  if (hasSecretTool()) {
    try {
      // The token goes to the desktop keyring (stdin, never argv); the file keeps only the URL.
      execFileSync('secret-tool', ['store', '--label=htmls', 'service', 'htmls', 'url', c.url], { input: token, stdio: ['pipe', 'ignore', 'ignore'], timeout: 10_000 });
      writeFileSync(credFile(), JSON.stringify(c), { mode: 0o600 });
      return 'keyring';
    } catch {
      // secret-tool without a running keyring (SSH, containers): fall back to the file.
    }
  }
  writeFileSync(credFile(), JSON.stringify({ ...c, token }), { mode: 0o600 });
  return 'file';
}

function loadCredentials(): (Credentials & { token: string }) | null {
  try {
    const c = JSON.parse(readFileSync(credFile(), 'utf8')) as Credentials;
    const token = c.token ?? (hasSecretTool() ? execFileSync('secret-tool', ['lookup', 'service', 'htmls', 'url', c.url], { encoding: 'utf8' }).trim() : '');
    return token ? { ...c, token } : null;
  } catch {
    return null;
  }
}

function forgetCredentials(c: Credentials | null) {
  if (c && hasSecretTool()) spawnSync('secret-tool', ['clear', 'service', 'htmls', 'url', c.url]);
  rmSync(credFile(), { force: true });
}

/** A secret from the environment, else typed at a hidden prompt (never an argument: shell history). */
async function secret(envName: string, prompt: string): Promise<string> {
  const fromEnv = process.env[envName];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new CliError(`Set ${envName} or run in a terminal to type it`);
  process.stderr.write(prompt);
  process.stdin.setRawMode(true);
  process.stdin.resume();
  let value = '';
  return new Promise((resolve, reject) => {
    const onData = (buf: Buffer) => {
      for (const ch of buf.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdin.off('data', onData);
          process.stderr.write('\n');
          return resolve(value);
        }
        if (ch === '\u0003' || ch === '\u0004') {
          process.stdin.setRawMode(false);
          process.stdin.pause();
          process.stdin.off('data', onData);
          process.stderr.write('\n');
          return reject(new CliError('Cancelled'));
        }
        if (ch === '\u007f') value = value.slice(0, -1);
        else value += ch;
      }
    };
    process.stdin.on('data', onData);
  });
}

class CliError extends Error {}

/** "7d", "24h", "90m", or an ISO time → ISO time. */
export function parseExpiry(text: string): string {
  const m = /^(\d+)\s*([dhm])$/i.exec(text.trim());
  if (m) {
    const unit = { d: 86400_000, h: 3600_000, m: 60_000 }[m[2].toLowerCase() as 'd' | 'h' | 'm'];
    return new Date(Date.now() + Number(m[1]) * unit).toISOString();
  }
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new CliError(`Cannot read the expiry "${text}": use 7d, 24h, 90m or an ISO time`);
  return new Date(t).toISOString();
}

const MESSAGES: Record<string, string> = {
  invalid_request: 'The server refused the request as invalid.',
  invalid_path: 'A file path is not allowed.',
  duplicate_path: 'Two files would land at the same path.',
  too_many_files: 'Too many files for one upload (at most 500).',
  too_large: 'The upload is larger than the server allows.',
  token_too_short: 'The token is too short (at least 8 characters).',
  unauthenticated: 'Not signed in (or the session ended): run `htmls login`.',
  wrong_password: 'Wrong password.',
  forbidden: 'Your account may not do that.',
  account_disabled: 'This account is disabled.',
  quota_exceeded: 'Not enough free quota for this upload.',
  not_found: 'Not found (or not yours).',
  expired: 'That share has expired.',
  slug_taken: 'That site name is taken: choose another --slug, or add --replace (a new version) or --append.',
  username_taken: 'That username is taken.',
  storage_unavailable: 'The server cannot reach its file storage right now; try again shortly.',
  database_unavailable: 'The server cannot reach its database right now; try again shortly.',
  upload_not_complete: 'That share\'s upload never finished: share the files again.',
  already_completed: 'That upload is already complete.',
  part_too_large: 'The server refused a part as too large.',
  migrations_pending: 'The server is being upgraded; try again in a minute.',
  network_error: 'Could not reach the server.',
  local_file_error: 'A file could not be read; the upload was cancelled.',
};

function explain(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.code === 'rate_limited') return `Too many attempts; try again in ${e.retryAfter ?? 60} seconds.`;
    const friendly = MESSAGES[e.code];
    return friendly ? `${friendly} (${e.message})` : e.message;
  }
  return (e as Error).message;
}

function progressBar(json: boolean) {
  let last = 0;
  return (p: { loaded: number; total: number; speed: number; eta: number }) => {
    if (json) return;
    const now = Date.now();
    if (now - last < 200 && p.loaded < p.total) return;
    last = now;
    const width = 28;
    const filled = p.total ? Math.round((p.loaded / p.total) * width) : width;
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${formatBytes(p.loaded)} / ${formatBytes(p.total)}  ${formatSpeed(p.speed)}  ETA ${formatEta(p.eta)}`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
  };
}

/** Unknown or malformed options are a usage error (exit 2), not a crash. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        username: { type: 'string' },
        admin: { type: 'boolean' },
        json: { type: 'boolean' },
        note: { type: 'string' },
        expires: { type: 'string' },
        'no-expiry': { type: 'boolean' },
        password: { type: 'string' },
        'generate-password': { type: 'boolean' },
        'no-password': { type: 'boolean' },
        offline: { type: 'boolean' },
        online: { type: 'boolean' },
        slug: { type: 'string' },
        append: { type: 'boolean' },
        replace: { type: 'boolean' },
        spa: { type: 'boolean' },
        'include-dotfiles': { type: 'boolean' },
        yes: { type: 'boolean' },
        qr: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

async function main(argv: string[]) {
  const { values: o, positionals } = parseCommandLine(argv);
  const [command, ...args] = positionals;
  const out = (human: string, data: unknown) => console.log(o.json ? JSON.stringify(data) : human);

  if (!command || o.help) {
    console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith(' *   ')).map((l) => l.slice(3)).join('\n'));
    return;
  }

  if (command === 'login') {
    const url = (o.url ?? process.env.HTMLS_URL ?? loadCredentials()?.url ?? 'http://localhost:3000').replace(/\/+$/, '');
    const client = new HtmlsClient({ baseUrl: url });
    if (o.admin) {
      const r = await client.loginAdmin(await secret('HTMLS_ADMIN_TOKEN', 'Admin Token: '));
      const where = saveCredentials({ url, role: 'admin', username: null }, r.token);
      return out(`Signed in to ${url} as the administrator (session kept in ${where === 'keyring' ? 'the OS keyring' : credFile()}).`, {
        url,
        role: 'admin',
        expires_at: r.expires_at,
        stored_in: where,
      });
    }
    const username = o.username ?? process.env.HTMLS_USERNAME;
    if (!username) throw new CliError('Give --username NAME');
    const r = await client.login(username, await secret('HTMLS_PASSWORD', 'Password: '));
    const where = saveCredentials({ url, role: r.role, username: r.user?.username ?? username }, r.token);
    return out(`Signed in to ${url} as ${r.user?.username ?? username} (session kept in ${where === 'keyring' ? 'the OS keyring' : credFile()}).`, {
      url,
      role: r.role,
      user: r.user,
      expires_at: r.expires_at,
      stored_in: where,
    });
  }

  const creds = loadCredentials();
  // Exit code 3 like a session the server ended: a script can tell "log in first" apart.
  if (!creds) throw new ApiError(401, 'not_signed_in', 'Not signed in: run `htmls login --url URL --username NAME` first.');
  const client = new HtmlsClient({ baseUrl: creds.url, token: creds.token });

  switch (command) {
    case 'logout': {
      await client.logout().catch(() => {});
      forgetCredentials(creds);
      return out('Signed out.', { ok: true });
    }
    case 'me': {
      const me = await client.me();
      const u = me.user;
      return out(
        u ? `${u.username} (${u.role}) — ${formatBytes(u.used_bytes)} of ${formatBytes(u.quota_bytes)} used` : `administrator (Admin Token) on ${creds.url}`,
        me,
      );
    }
    case 'share': {
      if (args.length === 0) throw new CliError('Name the files or folders to share');
      const password = o['generate-password'] ? randomBytes(12).toString('base64url') : o.password;
      const stats = { parts_total: 0, parts_resumed: 0, parts_sent: 0 };
      // Ctrl-C leaves the upload where it is: the state file lets the same command resume it.
      process.once('SIGINT', () => {
        process.stderr.write('\nInterrupted: run the same command again to resume the upload.\n');
        process.exit(130);
      });
      const share = await client.uploadShare(args, {
        note: o.note,
        expiresAt: o.expires ? parseExpiry(o.expires) : undefined,
        password,
        onProgress: progressBar(Boolean(o.json)),
        // For crash tests: die the hard way after N parts, as a killed laptop would.
        onPartDone: (n) => {
          stats.parts_sent = n;
          if (Number(process.env.HTMLS_CRASH_AFTER_PARTS) === n) process.kill(process.pid, 'SIGKILL');
        },
        onPlan: (plan) => {
          stats.parts_total = plan.totalParts;
          stats.parts_resumed = plan.storedParts;
          // On stderr even with --json: stdout stays one JSON document.
          if (plan.resumed) process.stderr.write(`resuming: ${plan.storedParts} of ${plan.totalParts} parts already uploaded\n`);
        },
      });
      if (!o.json && process.stderr.isTTY) process.stderr.write('\n');
      const link = `${creds.url}${share.url}`;
      if (o.json) return out('', { ...share, link, upload: stats, ...(o['generate-password'] ? { password } : {}) });
      console.log(link);
      if (o['generate-password']) console.log(`password: ${password}`);
      if (o.qr || process.stdout.isTTY) {
        const qrcode = await import('qrcode');
        console.log(await qrcode.toString(link, { type: 'terminal', small: true }));
      }
      return;
    }
    case 'shares': {
      const shares = await client.listShares();
      if (o.json) return out('', shares);
      if (shares.length === 0) return console.log('No shares.');
      for (const s of shares) {
        console.log(
          `${s.id}  ${s.status.padEnd(7)} ${formatBytes(s.total_bytes).padStart(8)}  ${s.file_count} files  ${s.expires_at ? `expires ${s.expires_at}` : 'no expiry'}${s.has_password ? '  🔒' : ''}  ${creds.url}${s.url}${s.note ? `  — ${s.note}` : ''}`,
        );
      }
      return;
    }
    case 'share-set': {
      const id = args[0];
      if (!id) throw new CliError('Give the share id');
      const patch: Record<string, unknown> = {};
      if (o.offline) patch.status = 'offline';
      if (o.online) patch.status = 'online';
      if (o.expires) patch.expires_at = parseExpiry(o.expires);
      if (o['no-expiry']) patch.expires_at = null;
      if (o.password !== undefined) patch.password = o.password;
      if (o['generate-password']) patch.password = randomBytes(12).toString('base64url');
      if (o['no-password']) patch.password = null;
      if (o.note !== undefined) patch.note = o.note;
      if (Object.keys(patch).length === 0) throw new CliError('Nothing to change: give --offline, --online, --expires, --password, --no-password or --note');
      const share = await client.updateShare(id, patch);
      return out(
        `${share.id}: ${share.status}, ${share.expires_at ? `expires ${share.expires_at}` : 'no expiry'}, ${share.has_password ? 'password set' : 'no password'}${o['generate-password'] ? `\npassword: ${patch.password}` : ''}`,
        { ...share, ...(o['generate-password'] ? { password: patch.password } : {}) },
      );
    }
    case 'share-rm': {
      if (!args[0]) throw new CliError('Give the share id');
      await client.deleteShare(args[0]);
      return out(`Deleted ${args[0]}.`, { ok: true, id: args[0] });
    }
    case 'deploy': {
      if (!args[0]) throw new CliError('Give the folder (or .zip) to deploy');
      const project = await client.deployHosted(args[0], {
        slug: o.slug,
        note: o.note,
        password: o.password,
        append: o.append,
        replace: o.replace,
        spa: o.spa,
        includeDotfiles: o['include-dotfiles'],
      });
      return out(`${creds.url}${project.url}/  (${project.file_count} files, ${formatBytes(project.total_bytes)})`, { ...project, link: `${creds.url}${project.url}/` });
    }
    case 'account': {
      if (args[0] !== 'delete') throw new CliError('Usage: htmls account delete [--yes]');
      if (!o.yes) {
        if (!process.stdin.isTTY) throw new CliError('Add --yes to delete the account without a prompt');
        const typed = await secret('HTMLS_NEVER_SET', `Type your username (${creds.username}) to delete the account and every share: `);
        if (typed.trim() !== creds.username) throw new CliError('Not deleted.');
      }
      await client.deleteAccount();
      forgetCredentials(creds);
      return out('Account deleted.', { ok: true });
    }
    default:
      throw new CliError(`Unknown command "${command}". Run htmls --help`);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e) => {
    const json = process.argv.includes('--json');
    if (json) console.log(JSON.stringify({ error: explain(e), code: e instanceof ApiError ? e.code : 'cli_error' }));
    else console.error(`htmls: ${explain(e)}`);
    process.exit(e instanceof ApiError && e.status === 401 ? 3 : e instanceof CliError ? 2 : 1);
  },
);
