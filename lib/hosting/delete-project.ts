import 'server-only';
import { bumpHostingEpoch, deleteProjectRow } from '@/db/queries/hosting';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions, scheduleDeletion } from '../storage/gc';
import { batchPrefixes } from '../storage/keys';
import { forgetSites } from './site-cache';
import { isValidSlug } from './slug';

/** DELETE /api/projects/:slug — every deploy's records and their deletion job in one transaction; then the bytes go. */
export async function deleteProject(rt: Runtime, slug: string): Promise<void> {
  if (!isValidSlug(slug)) throw notFound('No such project');
  const ids = await rt.db.transaction(async (tx) => {
    const batches = await deleteProjectRow(tx, slug);
    if (batches === null) throw notFound('No such project');
    await bumpHostingEpoch(tx);
    return scheduleDeletion(tx, batches.flatMap((b) => batchPrefixes(slug, b)));
  });
  forgetSites();
  await runDeletions(rt, ids);
}
