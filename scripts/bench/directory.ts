/** The public directory `/` with PROJECTS projects seeded straight into the database. */
import { createDb } from '../../db/client';
import { applyMigrations } from '../../db/migrate';
import { deploys, hostedFiles, projects } from '../../db/schema';
import { addRow, fmt, pct, PROJECTS, quick, request, type BenchContext } from './common';

/** Writes PROJECTS projects with one online file each, before the server starts. */
export async function seedDirectory(env: Record<string, string | undefined>, dataDir: string) {
  const dbh = await createDb({ url: env.DATABASE_URL, dataDir });
  await applyMigrations(dbh, env.DATABASE_URL);
  for (let i = 0; i < PROJECTS; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, PROJECTS - i) }, (_, k) => `bench-${String(i + k).padStart(6, '0')}`);
    await dbh.db.insert(projects).values(batch.map((slug) => ({ slug, note: `Seeded project ${slug}`, activeDeployId: `d${slug.slice(6)}` })));
    await dbh.db.insert(deploys).values(batch.map((slug) => ({ id: `d${slug.slice(6)}`, slug, fileCount: 1, totalBytes: 5 })));
    await dbh.db.insert(hostedFiles).values(
      batch.map((slug) => ({ slug, deployId: `d${slug.slice(6)}`, path: 'index.html', pathKey: 'index.html', storageKey: `files/${slug}/seed/index.html`, size: 5, contentType: 'text/html; charset=utf-8', etag: '"seed"' })),
    );
  }
  await dbh.close();
}

export async function benchDirectory(ctx: BenchContext): Promise<void> {
  const dir: number[] = [];
  for (let i = 0; i < (quick ? 60 : 200); i++) {
    const t0 = performance.now();
    const r = await request(`${ctx.base}/?page=${1 + (i % 20)}`);
    if (r.status !== 200) throw new Error(`directory: ${r.status}`);
    dir.push(performance.now() - t0);
  }
  addRow(`/ directory p95 (${fmt(PROJECTS)} projects)`, pct(dir, 95), 'ms', null, '', { max: 50, text: 'goal < 50 ms' }, false);
}
