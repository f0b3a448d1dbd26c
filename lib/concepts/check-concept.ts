import 'server-only';
import { existingConceptIds } from '@/db/queries/concepts';
import { AppError } from '../errors';
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
export async function checkConcept(rt: Runtime, doc: unknown, urlId?: string): Promise<ConceptDocument> {
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
export const stampNew = (doc: ConceptDocument, now: string): ConceptDocument => ({
  ...doc,
  created_at: doc.created_at ?? now,
  updated_at: doc.updated_at ?? now,
});

export const stampReplacement = (doc: ConceptDocument, now: string, created: string | undefined): ConceptDocument => ({
  ...doc,
  created_at: doc.created_at ?? created ?? now,
  updated_at: now,
});
