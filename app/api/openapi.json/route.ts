import { openApiDocument } from '@/lib/contract/openapi';
import { json, route } from '@/lib/http/route';

let cached: Record<string, unknown> | undefined;

// GET /api/openapi.json — the OpenAPI 3.1 document of every /api route
export const GET = route({ auth: 'none' }, async () => json((cached ??= openApiDocument())));
