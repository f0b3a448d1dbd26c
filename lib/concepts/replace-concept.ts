import 'server-only';
import { findConcept, replaceConcept } from '@/db/queries/concepts';
import { notFound } from '../errors';
import type { Runtime } from '../runtime';
import { checkConcept, stampReplacement } from './check-concept';
import type { ConceptDocument } from './validate';

/** PUT /api/concepts/:id */
export async function putConcept(rt: Runtime, id: string, body: unknown): Promise<ConceptDocument> {
  const existing = await findConcept(rt.db, id);
  if (!existing) throw notFound('No such concept');
  const concept = await checkConcept(rt, body, id);
  const doc = stampReplacement(concept, new Date().toISOString(), (existing.document as ConceptDocument).created_at);
  // Deleted between the read and the write: the same answer as if it had gone first.
  if (!(await replaceConcept(rt.db, id, doc, doc.tags ?? []))) throw notFound('No such concept');
  return doc;
}
