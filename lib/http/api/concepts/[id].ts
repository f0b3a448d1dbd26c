import { deleteConcept } from '@/lib/concepts/delete-concept';
import { getConcept } from '@/lib/concepts/get-concept';
import { putConcept } from '@/lib/concepts/replace-concept';
import { operations } from '@/lib/contract/operations';
import { json, noContent, route } from '@/lib/http/route';

// GET /api/concepts/:id — one concept (administrator)
export const GET = route(operations.getConcept, async ({ rt, params }) => json({ concept: await getConcept(rt, params.id) }));

// PUT /api/concepts/:id — replace a concept; its id must stay the same
export const PUT = route(operations.replaceConcept, async ({ rt, params, body }) =>
  json({ concept: await putConcept(rt, params.id, body) }),
);

// DELETE /api/concepts/:id
export const DELETE = route(operations.deleteConcept, async ({ rt, params }) => {
  await deleteConcept(rt, params.id);
  return noContent();
});
