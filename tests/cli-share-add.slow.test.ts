/**
 * Shares that grow, from the CLI (issue 24, item 5): `htmls share-add` adds files and folders
 * to a published share (guests see them once complete), `htmls share-rm-item` removes one.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { htmls } from './support/cli';
import { call } from './support/http';
import { createMember } from './support/members';
import { tempDir } from './support/server';
import { writeTree } from './support/write-tree';

useFileServer();


async function member() {
  const m = await createMember({ quota: 1024 ** 3 });
  const env = { HTMLS_CONFIG_DIR: tempDir('htmls-cli-grow-') };
  writeFileSync(path.join(env.HTMLS_CONFIG_DIR, 'credentials.json'), JSON.stringify({ url: baseUrl(), store: 'file', role: 'member', username: m.username, token: m.token }), { mode: 0o600 });
  return { ...m, env };
}

const guest = (id: string, p: string) => fetch(`${baseUrl()}/f/${id}/${p.split('/').map(encodeURIComponent).join('/')}`);

describe('htmls share-add and share-rm-item', () => {
  it('adds a file and a folder to a published share, guests see them; removes one item; refusals in words', async () => {
    const m = await member();
    const dir = tempDir('htmls-cli-grow-files-');
    const big = randomBytes(300_000);
    writeTree(dir, { 'first.txt': 'first', 'later.txt': 'later', 'photos/a.txt': 'AAA', 'photos/deep/b.bin': big });
    const made = await htmls(['share', path.join(dir, 'first.txt'), '--note', 'Growing', '--json'], m.env);
    expect(made.code, made.stderr).toBe(0);
    const share = JSON.parse(made.stdout);

    const added = await htmls(['share-add', share.id, path.join(dir, 'later.txt'), path.join(dir, 'photos'), '--json'], m.env);
    expect(added.code, added.stderr).toBe(0);
    const grown = JSON.parse(added.stdout);
    expect(grown).toMatchObject({ id: share.id, note: 'Growing', file_count: 4, added: 3, link: `${baseUrl()}/f/${share.id}` });
    expect(grown.items.map((i: { relative_path: string }) => i.relative_path).sort()).toEqual(['first.txt', 'later.txt', 'photos/a.txt', 'photos/deep/b.bin']);
    expect(grown.upload.parts_total).toBeGreaterThanOrEqual(3);
    expect(await (await guest(share.id, 'later.txt')).text()).toBe('later');
    expect(await (await guest(share.id, 'photos/a.txt')).text()).toBe('AAA');
    expect(Buffer.from(await (await guest(share.id, 'photos/deep/b.bin')).arrayBuffer()).equals(big)).toBe(true);

    // The human output: the link, then what was added and what the share holds now.
    writeTree(dir, { 'extra.txt': 'extra' });
    const human = await htmls(['share-add', share.id, path.join(dir, 'extra.txt')], m.env);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout.trim().split('\n')).toEqual([`${baseUrl()}/f/${share.id}`, expect.stringMatching(/^Added 1 file: the share now holds 5 files, \d/)]);

    // A path the share has already is refused, with the server's words.
    const dup = await htmls(['share-add', share.id, path.join(dir, 'later.txt')], m.env);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already has "later\.txt"/);

    const rm = await htmls(['share-rm-item', share.id, 'photos/a.txt'], m.env);
    expect([rm.code, rm.stdout.trim()]).toEqual([0, `Removed photos/a.txt from ${share.id}.`]);
    expect((await guest(share.id, 'photos/a.txt')).status).toBe(404);
    expect((await guest(share.id, 'later.txt')).status).toBe(200);
    const now = (await call('GET', `/api/shares/${share.id}`, { token: m.token })).json.share;
    expect(now.file_count).toBe(4);

    const missing = await htmls(['share-rm-item', share.id, 'photos/a.txt', '--json'], m.env);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toMatchObject({ code: 'not_found' });
    expect((await htmls(['share-rm-item', share.id], m.env)).code).toBe(2);

    // A share's only file: the server's reason, not "someone changed this at the same time".
    const single = JSON.parse((await htmls(['share', path.join(dir, 'first.txt'), '--json'], m.env)).stdout);
    const last = await htmls(['share-rm-item', single.id, 'first.txt'], m.env);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain(`"first.txt" is this share's only file: delete the share instead`);
    expect(last.stderr).not.toMatch(/same time/);
    expect((await htmls(['share-add', share.id], m.env)).code).toBe(2);
  });
});
