/**
 * The CLI's file request commands (issue 24, Build 4): request create, requests, request-set,
 * request-rm as the owner; send as a guest with no account, killed mid-way and resumed.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { htmls, startCli } from './support/cli';
import { call } from './support/http';
import { createMember } from './support/members';
import { tempDir } from './support/server';

// Parts of 5 MiB (the smallest PROXY_PART_SIZE), not 48: the resume case is about which parts
// are sent again, and moved 144 MiB up and down at the default.
useFileServer({ PROXY_PART_SIZE: String(5 * 1024 * 1024) });


/**
 * An HTTP relay to the test server that loses the answer to the first upload complete after the
 * server has sent it: `drop` closes the client's connection, `hang` never answers. It counts the
 * completes and the request inits that reached the server.
 */
async function answerLosingProxy(mode: 'drop' | 'hang') {
  const target = new URL(baseUrl());
  let completes = 0;
  let inits = 0;
  let completed = false;
  const server = http.createServer((req, res) => {
    const isComplete = req.method === 'POST' && req.url === '/api/shares/upload/complete';
    if (isComplete) completes++;
    if (req.method === 'POST' && /^\/api\/requests\/[^/]+\/upload$/.test(req.url ?? '')) inits++;
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      if (isComplete && completes === 1) {
        answer.resume();
        answer.on('end', () => {
          completed = answer.statusCode === 200;
          if (mode === 'drop') req.socket.destroy();
        });
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    completes: () => completes,
    completed: () => completed,
    inits: () => inits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function owner() {
  const m = await createMember({ quota: 2 * 1024 ** 3 });
  const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-req-') };
  writeFileSync(path.join(env.HTMLS_CONFIG_DIR, 'credentials.json'), JSON.stringify({ url: baseUrl(), store: 'file', role: 'member', username: m.username, token: m.token }), { mode: 0o600 });
  return { ...m, env };
}

describe('htmls request commands', () => {
  it('request create, requests, request-set and request-rm', async () => {
    const m = await owner();
    const made = await htmls(['request', 'create', '--max-files', '10', '--max-size', '2GB', '--types', 'video/*,.pdf', '--expires', '7d', '--note', 'Footage', '--json'], m.env);
    expect(made.code, made.stderr).toBe(0);
    const r = JSON.parse(made.stdout);
    expect(r).toMatchObject({ max_files: 10, max_bytes: 2 * 1024 ** 3, allowed_types: ['video/*', '.pdf'], note: 'Footage', status: 'open', link: `${baseUrl()}/r/${r.id}` });
    expect(Date.parse(r.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86400_000);
    const human = await htmls(['request', 'create'], m.env);
    expect(human.stdout.trim().split('\n')[0]).toMatch(new RegExp(`^${baseUrl()}/r/[A-Za-z0-9]+$`));
    const list = await htmls(['requests'], m.env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${r.id}  open +0 uploads, 0 B  ≤10 files  ≤2\\.0 GB  video/\\*,\\.pdf  ${baseUrl()}/r/${r.id}  — Footage$`, 'm'));
    const closed = await htmls(['request-set', r.id, '--close', '--no-types', '--json'], m.env);
    expect(closed.code, closed.stderr).toBe(0);
    expect(JSON.parse(closed.stdout)).toMatchObject({ status: 'closed', allowed_types: null });
    expect((await call('GET', `/r/${r.id}`)).status).toBe(404);
    const bad = await htmls(['request', 'create', '--max-size', 'lots'], m.env);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('Cannot read the size "lots"')]);
    expect((await htmls(['request-rm', r.id], m.env)).stdout).toContain(`Deleted ${r.id}.`);
    const gone = await htmls(['request-rm', r.id], m.env);
    expect(gone.code).not.toBe(0);
  });

  it('htmls send: a guest with no account sends a multi-part file, is killed mid-way, and resumes sending only the missing parts', { timeout: 240_000 }, async () => {
    const m = await owner();
    const r = JSON.parse((await htmls(['request', 'create', '--json'], m.env)).stdout);
    const size = (await call('GET', '/api/shares/upload/capabilities', { token: m.token })).json.partSize as number;
    const dir = path.join(tempDir('htmls-send-'), 'clip');
    mkdirSync(dir);
    const data = randomBytes(3 * size + 777);
    writeFileSync(path.join(dir, 'movie.bin'), data);
    // The guest: no credentials at all, a config dir of their own for the resume state.
    const guest = { HTMLS_CONFIG_DIR: tempDir('htmls-guest-') };
    const stateDir = path.join(guest.HTMLS_CONFIG_DIR, 'uploads');
    const storedInState = () => {
      try {
        const [file] = readdirSync(stateDir).filter((f) => f.endsWith('.json'));
        return file ? ((JSON.parse(readFileSync(path.join(stateDir, file), 'utf8')).stored ?? []) as string[]).length : 0;
      } catch {
        return 0;
      }
    };
    const link = `${baseUrl()}/r/${r.id}`;
    const cli = startCli(['send', link, dir, '--name', 'Dana', '--message', 'the clip'], guest);
    await expect.poll(storedInState, { timeout: 120_000, interval: 10 }).toBeGreaterThanOrEqual(1);
    cli.proc.kill('SIGKILL');
    expect((await cli.done).signal).toBe('SIGKILL');
    const [stateFile] = readdirSync(stateDir).filter((f) => f.endsWith('.json'));
    const state = JSON.parse(readFileSync(path.join(stateDir, stateFile), 'utf8'));
    expect(state.uploadToken).toMatch(/^htmls_upl_/);
    const before = await call('POST', '/api/shares/upload/status', { token: state.uploadToken, body: { groupId: state.groupId } });
    const storedBefore = before.json.files[0].parts.length as number;
    expect(storedBefore).toBeGreaterThanOrEqual(1);
    expect(storedBefore).toBeLessThan(4);

    const second = await htmls(['send', link, dir, '--name', 'Dana', '--message', 'the clip', '--json'], guest);
    expect(second.code, second.stderr).toBe(0);
    // The part in flight at the kill may still be stored after that reading (its whole body can
    // be in the socket's buffers): the resume asks the server again and finds at least as many.
    expect(second.stderr).toMatch(/resuming: \d of 4 parts already uploaded/);
    const resumed = Number(/resuming: (\d) of 4 parts already uploaded/.exec(second.stderr)?.[1]);
    expect(resumed).toBeGreaterThanOrEqual(storedBefore);
    expect(resumed).toBeLessThan(4);
    const sent = JSON.parse(second.stdout);
    expect(sent).toEqual({ file_count: 1, total_bytes: data.length, confirmed: true, upload: { parts_total: 4, parts_resumed: resumed, parts_sent: 4 - resumed } });
    expect(readdirSync(stateDir).filter((f) => f.endsWith('.json'))).toHaveLength(0);

    // The owner received it, offline, from Dana; once published its bytes are the same.
    const shares = (await call('GET', `/api/shares?request=${r.id}`, { token: m.token })).json.shares;
    expect(shares).toHaveLength(1);
    expect(shares[0]).toMatchObject({ id: state.groupId, status: 'offline', received: { name: 'Dana', message: 'the clip' } });
    expect((await call('PATCH', `/api/shares/${shares[0].id}`, { token: m.token, body: { status: 'online' } })).status).toBe(200);
    const got = await fetch(`${baseUrl()}/f/${shares[0].id}/clip/movie.bin`);
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
  });

  it('htmls send never delivers twice: a lost answer to complete, or a kill after it, ends as sent once', { timeout: 120_000 }, async () => {
    const m = await owner();
    const r = JSON.parse((await htmls(['request', 'create', '--json'], m.env)).stdout);
    const dir = path.join(tempDir('htmls-send-once-'), 'docs');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'alpha');
    const received = async () => (await call('GET', `/api/shares?request=${r.id}`, { token: m.token })).json.shares as unknown[];

    // 1. The server completes the upload and its answer never comes back: the retry meets the spent token.
    const lossy = await answerLosingProxy('drop');
    try {
      const guest = { HTMLS_CONFIG_DIR: tempDir('htmls-guest-') };
      const out = await htmls(['send', `${lossy.url}/r/${r.id}`, dir, '--json'], guest);
      expect(out.code, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({ file_count: 1, total_bytes: 5, confirmed: false });
      // The first complete was delivered, the retry met the spent token.
      expect(lossy.completes()).toBe(2);
      expect(await received()).toHaveLength(1);
    } finally {
      await lossy.close();
    }

    // 2. Killed after the complete reached the server, before the answer: the next run says so and sends nothing.
    writeFileSync(path.join(dir, 'b.txt'), 'beta!');
    const hanging = await answerLosingProxy('hang');
    try {
      const guest = { HTMLS_CONFIG_DIR: tempDir('htmls-guest-') };
      const cli = startCli(['send', `${hanging.url}/r/${r.id}`, dir], guest);
      await expect.poll(() => hanging.completed(), { timeout: 60_000, interval: 10 }).toBe(true);
      cli.proc.kill('SIGKILL');
      await cli.done;
      expect(await received()).toHaveLength(2);
      const again = await htmls(['send', `${hanging.url}/r/${r.id}`, dir, '--json'], guest);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ file_count: 2, total_bytes: 10, confirmed: false });
      expect(hanging.inits()).toBe(1);
      expect(await received()).toHaveLength(2);
    } finally {
      await hanging.close();
    }
  });

  it('htmls send refuses what is not a request link, and explains the request\'s refusal', async () => {
    const guest = { HTMLS_CONFIG_DIR: tempDir('htmls-guest-') };
    const dir = tempDir('htmls-send-bad-');
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    const notLink = await htmls(['send', 'not a link', path.join(dir, 'a.txt')], guest);
    expect([notLink.code, notLink.stderr]).toEqual([2, expect.stringContaining('is not a link')]);
    const m = await owner();
    const r = JSON.parse((await htmls(['request', 'create', '--types', '.pdf', '--json'], m.env)).stdout);
    const refused = await htmls(['send', `${baseUrl()}/r/${r.id}`, path.join(dir, 'a.txt')], guest);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('a.txt is not a type this request takes');
    // Refused at init: the reason alone, no progress bar drawn before it.
    expect(refused.stderr).not.toContain('[');
  });

  it("htmls send to a protected request without its password says how to give it (exit 1, not the log-in exit 3)", async () => {
    const guest = { HTMLS_CONFIG_DIR: tempDir('htmls-guest-') };
    const dir = tempDir('htmls-send-locked-');
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    const m = await owner();
    const r = JSON.parse((await htmls(['request', 'create', '--generate-password', '--json'], m.env)).stdout);
    const locked = await htmls(['send', `${baseUrl()}/r/${r.id}`, path.join(dir, 'a.txt')], guest);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/protected by a password: add --password .* or set HTMLS_REQUEST_PASSWORD/);
    expect(locked.stderr).not.toMatch(/login|Not signed in/);
    const sent = await htmls(['send', `${baseUrl()}/r/${r.id}`, path.join(dir, 'a.txt')], { ...guest, HTMLS_REQUEST_PASSWORD: r.password });
    expect([sent.code, sent.stdout.trim()], sent.stderr).toEqual([0, 'Sent 1 file, 1 B.']);
  });
});
