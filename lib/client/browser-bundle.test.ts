import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const here = import.meta.dirname;

/** Bundles one module for the browser: esbuild refuses any node: import it can reach. */
const bundleForBrowser = (file: string) =>
  build({
    entryPoints: [file],
    absWorkingDir: root,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    external: ['react', 'react-dom'],
    tsconfig: path.join(root, 'tsconfig.json'),
  });

const browserModules = readdirSync(here).filter((f) => /\.tsx?$/.test(f) && !f.includes('.test.'));

describe('lib/client: browser code apart from Node code', () => {
  it.each(browserModules)('%s bundles for the browser (no node: import reachable)', async (f) => {
    await expect(bundleForBrowser(path.join(here, f))).resolves.toMatchObject({ errors: [] });
  });

  it('the Node SDK does not (the check can fail)', async () => {
    await expect(bundleForBrowser(path.join(here, 'node/sdk.ts'))).rejects.toThrow(/node:/);
  });

  it('no browser code imports lib/client/node/', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tsx?$/.test(e.name) && /lib\/client\/node\//.test(readFileSync(p, 'utf8'))) offenders.push(path.relative(root, p));
      }
    };
    walk(path.join(root, 'app'));
    for (const f of browserModules) if (/from '\.\/node\//.test(readFileSync(path.join(here, f), 'utf8'))) offenders.push(f);
    expect(offenders).toEqual([]);
  });
});
