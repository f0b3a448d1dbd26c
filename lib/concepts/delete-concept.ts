import 'server-only';
import { deleteConceptRow } from '@/db/queries/concepts';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';

/** DELETE /api/concepts/:id */
export async function deleteConcept(rt: Runtime, id: string): Promise<void> {
  if (!(await deleteConceptRow(rt.db, id))) throw notFound('No such concept');
}
