import { errorResponse } from '@/lib/http/route';
import { noSuchApiRoute } from '@/lib/errors';

// Any /api path no route claims: the contract's JSON 404 on every method, never Next's page.
const unknownRoute = async () => errorResponse(noSuchApiRoute());

export const GET = unknownRoute;
export const HEAD = unknownRoute;
export const POST = unknownRoute;
export const PUT = unknownRoute;
export const PATCH = unknownRoute;
export const DELETE = unknownRoute;
export const OPTIONS = unknownRoute;
