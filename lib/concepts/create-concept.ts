import 'server-only';
import { insertConcept } from '@/db/queries/concepts';
import { AppError } from '../errors';
import type { Runtime } from '../runtime';
import { checkConcept, stampNew } from './check-concept';
import type { ConceptDocument } from './validate';

/** POST /api/concepts */
export async function createConcept(rt: Runtime, body: unknown): Promise<ConceptDocument> {
  const concept = await checkConcept(rt, body);
  const doc = stampNew(concept, new Date().toISOString());
  if (!(await insertConcept(rt.db, doc.id, doc, doc.tags ?? []))) {
    throw new AppError('conflict', `A concept with id "${doc.id}" exists; replace it with PUT`);
  }
  return doc;
}
