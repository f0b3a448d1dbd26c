import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, hostedUrl, useFileServer } from './support/file-server';
import { adminSession, call } from './support/http';
import { createMember } from './support/members';
import { ROOT, tempDir } from './support/server';
import { makeToken } from './support/tokens';
import { ciDeployCommand } from '@/lib/client/integrations';
import { htmls as runCli } from './support/cli';

useFileServer();

/** The real CLI, as a CI job runs it: its own empty config dir, secrets from the environment only. */
const htmls = (args: string[], env: Record<string, string>, cwd = ROOT) => runCli(args, { HTMLS_CONFIG_DIR: tempDir('htmls-cli-tok-'), ...env }, cwd);

describe('htmls token / tokens, and HTMLS_TOKEN instead of a login', () => {
  it('token create prints the secret once; tokens lists it; HTMLS_TOKEN shares a file; a missing scope and a revoked token fail', async () => {
    const m = await createMember();
    // A login's session given as HTMLS_TOKEN works too (it is a Bearer token like any other).
    const asMember = { HTMLS_URL: baseUrl(), HTMLS_TOKEN: m.token };
    const made = await htmls(['token', 'create', '--scope', 'shares:write', '--expires', '90d', '--name', 'ci', '--json'], asMember);
    expect(made.code, made.stderr).toBe(0);
    const { secret, token } = JSON.parse(made.stdout);
    expect(secret).toMatch(/^htmls_pat_/);
    expect(Date.parse(token.expires_at) - Date.now()).toBeGreaterThan(89 * 86400_000);
    const listed = await htmls(['tokens'], asMember);
    expect(listed.stdout).toContain(token.prefix);
    expect(listed.stdout).not.toContain(secret);

    const dir = tempDir('htmls-cli-file-');
    writeFileSync(path.join(dir, 'report.txt'), 'quarterly numbers');
    const shared = await htmls(['share', path.join(dir, 'report.txt'), '--json'], { HTMLS_URL: baseUrl(), HTMLS_TOKEN: secret });
    expect(shared.code, shared.stderr).toBe(0);
    const share = JSON.parse(shared.stdout.trim().split('\n').at(-1)!);
    expect(await (await fetch(`${baseUrl()}${share.url ?? new URL(share.link).pathname}/report.txt`)).text()).toBe('quarterly numbers');

    const list = await htmls(['shares'], { HTMLS_URL: baseUrl(), HTMLS_TOKEN: secret });
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('shares:read');
    // A token never makes tokens.
    expect((await htmls(['token', 'create', '--scope', 'shares:read'], { HTMLS_URL: baseUrl(), HTMLS_TOKEN: secret })).code).toBe(1);

    const rm = await htmls(['token', 'rm', token.id], asMember);
    expect(rm.code, rm.stderr).toBe(0);
    const after = await htmls(['share', path.join(dir, 'report.txt')], { HTMLS_URL: baseUrl(), HTMLS_TOKEN: secret });
    expect(after.code).toBe(3);
    // The refused secret is named: no "Not signed in… htmls login" for a token that was set.
    expect(after.stderr).toMatch(/refused the access token in HTMLS_TOKEN/);
    expect(after.stderr).not.toMatch(/Not signed in/);
    const madeUp = await htmls(['me'], { HTMLS_URL: baseUrl(), HTMLS_TOKEN: 'htmls_pat_madeup0000000000000000000000' });
    expect([madeUp.code, madeUp.stderr]).toEqual([3, expect.stringMatching(/refused the access token in HTMLS_TOKEN/)]);
  });

  it('htmls --version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const v = await htmls([flag], {});
      expect([v.code, v.stdout.trim()]).toEqual([0, `htmls ${version}`]);
    }
  });

  it('a CI job builds a Vite site and deploys it with one secret: a sites:deploy:<slug> token as HTMLS_TOKEN', async () => {
    const admin = (await adminSession()).token;
    const secret = await makeToken(admin, ['sites:deploy:ci-site'], { name: 'GitHub Actions' });
    // The job's checkout: a Vite project, built as CI builds it.
    const repo = tempDir('htmls-ci-');
    writeFileSync(path.join(repo, 'index.html'), '<!doctype html><html><head><title>CI site</title></head><body><div id="app"></div><script type="module" src="/main.js"></script></body></html>');
    writeFileSync(path.join(repo, 'main.js'), "document.querySelector('#app').textContent = 'built by vite';\n");
    mkdirSync(path.join(repo, 'public'));
    writeFileSync(path.join(repo, 'public', 'robots.txt'), 'User-agent: *\n');
    const build = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--base', './', '--logLevel', 'warn'], { cwd: repo });
      let err = '';
      p.stderr.on('data', (d) => (err += d));
      p.on('exit', (code) => resolve({ code, err }));
    });
    expect(build.code, build.err).toBe(0);

    const ci = { HTMLS_URL: baseUrl(), HTMLS_TOKEN: secret };
    for (let run = 0; run < 2; run++) {
      // The same job twice: the first run makes the project, the next replaces it.
      const deployed = await htmls(['deploy', 'dist', '--slug', 'ci-site', '--replace'], ci, repo);
      expect(deployed.code, deployed.stderr).toBe(0);
    }
    const page = await fetch(`${hostedUrl()}/p/ci-site/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const asset = /src="\.?\/?(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset, html).toBeTruthy();
    expect(await (await fetch(`${hostedUrl()}/p/ci-site/${asset}`)).text()).toContain('built by vite');
    const deploys = await call('GET', '/api/projects/ci-site/deploys', { token: admin });
    expect(deploys.json.deploys).toHaveLength(2);

    const elsewhere = await htmls(['deploy', 'dist', '--slug', 'other-site', '--replace'], ci, repo);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('sites:deploy:other-site');

    // The step docs/ci-deploy.md and the /htmls dialog give, for a job with only zip and curl.
    const step = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const p = spawn('sh', ['-c', ciDeployCommand(baseUrl(), 'ci-site')], { cwd: repo, env: { PATH: process.env.PATH, HTMLS_TOKEN: secret } as unknown as NodeJS.ProcessEnv });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (out += d));
      p.on('exit', (code) => resolve({ code, out }));
    });
    expect(step.code, step.out).toBe(0);
    expect(JSON.parse(step.out).project).toMatchObject({ slug: 'ci-site' });
    expect((await call('GET', '/api/projects/ci-site/deploys', { token: admin })).json.deploys).toHaveLength(3);
  });
});
