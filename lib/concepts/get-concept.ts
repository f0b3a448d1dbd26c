import 'server-only';
import { findConcept } from '@/db/queries/concepts';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import type { ConceptDocument } from './validate';

/** GET /api/concepts/:id */
export async function getConcept(rt: Runtime, id: string): Promise<ConceptDocument> {
  const row = await findConcept(rt.db, id);
  if (!row) throw notFound('No such concept');
  return row.document as ConceptDocument;
}
