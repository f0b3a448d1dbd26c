/**
 * npm run lint:openapi — the OpenAPI document GET /api/openapi.json serves, written to a temp
 * file and linted by Redocly's recommended rules (`redocly lint --extends recommended`). Redocly
 * fails only on errors; this fails on any problem, warnings too, except the ones
 * .redocly.lint-ignore.yaml lists with its reason. CI runs it before the tests (.ci/run).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openApiDocument } from '@/lib/contract/openapi';

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

const root = process.cwd();
const dir = mkdtempSync(path.join(os.tmpdir(), 'htmls-openapi-'));
try {
  writeFileSync(path.join(dir, 'openapi.json'), `${JSON.stringify(openApiDocument(), null, 2)}\n`);
  // Redocly reads the ignore file from its working directory, keyed by the document's path there.
  copyFileSync(path.join(root, '.redocly.lint-ignore.yaml'), path.join(dir, '.redocly.lint-ignore.yaml'));
  const r = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', '--extends', 'recommended', '--format', 'json', 'openapi.json'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const start = r.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly lint printed no report (exit ${r.status}): ${r.stderr}`);
  const report = JSON.parse(r.stdout.slice(start)) as { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };
  for (const p of report.problems) console.error(`${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
  const { errors, warnings, ignored } = report.totals;
  console.log(`OpenAPI document, Redocly recommended: ${errors} errors, ${warnings} warnings (${ignored} ignored with a reason in .redocly.lint-ignore.yaml)`);
  process.exitCode = errors + warnings > 0 || r.status !== 0 ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
