import { z } from 'zod';
import { conceptsQuerySchema } from '@/lib/contract/concepts';
import { createConcept } from '@/lib/concepts/create-concept';
import { listConceptDocs } from '@/lib/concepts/list-concepts';
import { json, route } from '@/lib/http/route';

// GET /api/concepts?tag= — every concept, or those with a tag, by id (administrator)
export const GET = route({ auth: 'admin', query: conceptsQuerySchema }, async ({ rt, query }) =>
  json({ concepts: await listConceptDocs(rt, query.tag) }),
);

// POST /api/concepts — store a new concept, validated against the Concept 1.0 schema
export const POST = route({ auth: 'admin', body: z.unknown() }, async ({ rt, body }) => json({ concept: await createConcept(rt, body) }, 201));
