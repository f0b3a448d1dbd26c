import 'server-only';
import { listConcepts } from '@/db/queries/concepts';
import type { Runtime } from '../runtime';
import type { ConceptDocument } from './validate';

/** GET /api/concepts[?tag=] */
export async function listConceptDocs(rt: Runtime, tag?: string): Promise<ConceptDocument[]> {
  return (await listConcepts(rt.db, tag)).map((r) => r.document as ConceptDocument);
}
