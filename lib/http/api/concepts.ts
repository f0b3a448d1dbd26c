import { createConcept } from '@/lib/concepts/create-concept';
import { listConceptDocs } from '@/lib/concepts/list-concepts';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

// GET /api/concepts?tag= — every concept, or those with a tag, by id (administrator)
export const GET = route(operations.listConcepts, async ({ rt, query }) =>
  json({ concepts: await listConceptDocs(rt, query.tag) }),
);

// POST /api/concepts — store a new concept, validated against the Concept 1.0 schema
export const POST = route(operations.createConcept, async ({ rt, body }) => json({ concept: await createConcept(rt, body) }, 201));
