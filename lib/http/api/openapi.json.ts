import { openApiDocument } from '@/lib/contract/openapi';
import { operations } from '@/lib/contract/operations';
import { json, route } from '@/lib/http/route';

let cached: Record<string, unknown> | undefined;

// GET /api/openapi.json — the OpenAPI 3.1 document of every /api route
export const GET = route(operations.openapi, async () => json((cached ??= openApiDocument())));
