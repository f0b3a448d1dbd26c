import 'server-only';
import { deleteConceptRow, existingConceptIds, findConcept, insertConcept, listConcepts, replaceConcept } from '@/db/queries/concepts';
import { AppError, notFound } from '../errors';
import type { Runtime } from '../runtime';
import { conceptViolations, type ConceptDocument, type Violation } from './validate';

function invalid(violations: Violation[]): AppError {
  const first = violations[0];
  return new AppError(
    'invalid_request',
    `The concept breaks the Concept 1.0 schema in ${violations.length} ${violations.length === 1 ? 'place' : 'places'}: ${first.path || '/'} ${first.message}`,
    {},
    { violations },
  );
}

/**
 * Schema first, then every relation target must exist (a concept may point at itself). On a
 * PUT, an id that differs from the URL is one more violation, listed with the others.
 */
async function check(rt: Runtime, doc: unknown, urlId?: string): Promise<ConceptDocument> {
  const violations = conceptViolations(doc);
  const bodyId = (doc as { id?: unknown } | null)?.id;
  if (urlId !== undefined && typeof bodyId === 'string' && bodyId !== urlId) {
    violations.push({ path: '/id', message: `must equal the id in the URL ("${urlId}")` });
  }
  if (violations.length) throw invalid(violations);
  const concept = doc as ConceptDocument;
  const relations = concept.relations ?? [];
  const found = await existingConceptIds(rt.db, [...new Set(relations.map((r) => r.target_id))].filter((t) => t !== concept.id));
  const missing = relations
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.target_id !== concept.id && !found.has(r.target_id))
    .map(({ r, i }) => ({ path: `/relations/${i}/target_id`, message: `no concept "${r.target_id}" exists` }));
  if (missing.length) throw invalid(missing);
  return concept;
}

/** The document is stored as given; only absent times are filled, and a replace bumps updated_at. */
const stampNew = (doc: ConceptDocument, now: string): ConceptDocument => ({
  ...doc,
  created_at: doc.created_at ?? now,
  updated_at: doc.updated_at ?? now,
});

const stampReplacement = (doc: ConceptDocument, now: string, created: string | undefined): ConceptDocument => ({
  ...doc,
  created_at: doc.created_at ?? created ?? now,
  updated_at: now,
});

export async function createConcept(rt: Runtime, body: unknown): Promise<ConceptDocument> {
  const concept = await check(rt, body);
  const doc = stampNew(concept, new Date().toISOString());
  if (!(await insertConcept(rt.db, doc.id, doc, doc.tags ?? []))) {
    throw new AppError('conflict', `A concept with id "${doc.id}" exists; replace it with PUT`);
  }
  return doc;
}

export async function getConcept(rt: Runtime, id: string): Promise<ConceptDocument> {
  const row = await findConcept(rt.db, id);
  if (!row) throw notFound('No such concept');
  return row.document as ConceptDocument;
}

export async function listConceptDocs(rt: Runtime, tag?: string): Promise<ConceptDocument[]> {
  return (await listConcepts(rt.db, tag)).map((r) => r.document as ConceptDocument);
}

export async function putConcept(rt: Runtime, id: string, body: unknown): Promise<ConceptDocument> {
  const existing = await findConcept(rt.db, id);
  if (!existing) throw notFound('No such concept');
  const concept = await check(rt, body, id);
  const doc = stampReplacement(concept, new Date().toISOString(), (existing.document as ConceptDocument).created_at);
  // Deleted between the read and the write: the same answer as if it had gone first.
  if (!(await replaceConcept(rt.db, id, doc, doc.tags ?? []))) throw notFound('No such concept');
  return doc;
}

export async function deleteConcept(rt: Runtime, id: string): Promise<void> {
  if (!(await deleteConceptRow(rt.db, id))) throw notFound('No such concept');
}
