import 'server-only';
import { deleteProjectWithDeploys } from '@/db/queries/projects';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { runDeletions } from '../storage/gc';
import { batchPrefixes } from '../storage/keys';
import { isValidSlug } from './slug';

/** DELETE /api/projects/:slug — every deploy's records and their deletion job in one transaction; then the bytes go. */
export async function deleteProject(rt: Runtime, slug: string): Promise<void> {
  if (!isValidSlug(slug)) throw notFound('No such project');
  const ids = await deleteProjectWithDeploys(rt.db, slug, (batches) => batches.flatMap((b) => batchPrefixes(slug, b)));
  if (ids === null) throw notFound('No such project');
  await runDeletions(rt, ids);
}
