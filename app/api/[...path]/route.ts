import { api } from '@/lib/http/next-link';

// /api/[...path]: lib/http/api/[...path].ts through the one server (lib/http/next-link.ts)
export const GET = api('[...path]', 'GET');
export const HEAD = api('[...path]', 'HEAD');
export const POST = api('[...path]', 'POST');
export const PUT = api('[...path]', 'PUT');
export const PATCH = api('[...path]', 'PATCH');
export const DELETE = api('[...path]', 'DELETE');
export const OPTIONS = api('[...path]', 'OPTIONS');
