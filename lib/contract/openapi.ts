/**
 * The OpenAPI 3.1 document of every /api route, built from the operations the routes run
 * (lib/contract/operations.ts) — one source, no hand-written copy of a request body. Concept
 * bodies are the served JSON Schema file itself, since that is what the routes validate with.
 */
import { z } from 'zod';
import conceptSchemaFile from '../../public/schemas/concept-1.0.json';
import { statusByCode } from './error-codes';
import { guestDownloadPaths } from './openapi-downloads';
import { operations, type Auth, type Operation, type OperationScope } from './operations';
import { SCOPE_DESCRIPTIONS, SCOPES } from './scopes';
import * as R from './responses';

type Op = Operation;

const REF = '#/components/schemas/';
const JSON_TYPE = 'application/json';
type Schema = Record<string, unknown>;

/** Route input as the route parses it (io "input"); no shared components. */
const inputSchema = (s: z.ZodType): Schema => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Schema;
  return rest;
};

/** A response shape; named shapes (R.components) become $refs into components.schemas. */
const outputSchema = (s: z.ZodType): Schema => {
  const id = R.components.get(s)?.id;
  if (id) return { $ref: REF + id };
  const { $schema: _, $defs: __, ...rest } = z.toJSONSchema(s, { io: 'output', target: 'draft-2020-12', metadata: R.components }) as Schema;
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"${REF}`));
};

/** components.schemas: the zod-named shapes, with Concept and ConceptRelation from the served schema file. */
function componentSchemas(): Record<string, Schema> {
  const { schemas } = z.toJSONSchema(R.components, { io: 'output', target: 'draft-2020-12', uri: (id) => REF + id }) as { schemas: Record<string, Schema> };
  const out: Record<string, Schema> = {};
  for (const [id, { $schema: _s, $id: _i, ...rest }] of Object.entries(schemas)) out[id] = rest;
  const { $schema: _, $id, $defs, ...concept } = JSON.parse(JSON.stringify(conceptSchemaFile).replaceAll('"#/$defs/relation"', `"${REF}ConceptRelation"`));
  out.Concept = { ...concept, description: `${concept.description} The schema file: ${$id}` };
  out.ConceptRelation = $defs.relation;
  return out;
}

const codesOf = (status: number) => Object.entries(statusByCode).filter(([, s]) => s === status).map(([c]) => c).join(', ');
const SCHEMES = ['bearer', 'adminCookie', 'userCookie'];
/** The bearer scheme lists the access-token scope the operation needs, as OAuth scopes are listed. */
const bearerScopes = (scope: OperationScope) => (scope === 'public' || scope === 'no-token' ? [] : [scope]);
const securityFor = (auth: Auth, scope: OperationScope) =>
  auth === 'none'
    ? []
    : [
        ...(auth === 'optional' ? [{}] : []),
        ...SCHEMES.filter((k) => !(auth === 'member' && k === 'adminCookie')).map((k) => ({ [k]: k === 'bearer' ? bearerScopes(scope) : [] })),
      ];
const BEARER = `A member or administrator session token, the Admin Token itself, or an access token (htmls_pat_…). An access token may call an operation only when it holds the scope listed on the operation's bearer requirement (x-htmls-scope; sites:deploy:{slug} is the project's own sites:deploy:<slug>, or sites:deploy, or admin), intersected with its owner's current role; else 403 insufficient_scope. x-htmls-scope no-token: never with an access token (403). Scopes: ${SCOPES.map((k) => `${k} (${SCOPE_DESCRIPTIONS[k]})`).join('; ')}; sites:deploy:<slug> (one project). A guest's upload token (htmls_upl_…, from POST /api/requests/{id}/upload) is a Bearer only for the operations marked x-htmls-upload-token, and only for its own groupId while that upload is pending (another group: 404; once complete or discarded: 401); every other operation answers it 401.`;

function errorResponse(status: number, violations: boolean) {
  const schema =
    status === 400 && violations
      ? { anyOf: [{ $ref: `${REF}ValidationError` }, { $ref: `${REF}Error` }], description: 'Every schema violation, or a body that is not JSON' }
      : { $ref: `${REF}Error` };
  return {
    description: `Codes with this status: ${codesOf(status)}`,
    ...(status === 429 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
    content: { [JSON_TYPE]: { schema } },
  };
}

function operation(op: Op) {
  const parameters = [
    ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
    ...Object.entries(op.query?.shape ?? {}).map(([name, s]) => ({
      name,
      in: 'query',
      required: !(s as z.ZodType).safeParse(undefined).success,
      schema: inputSchema(s as z.ZodType),
    })),
  ];
  const requestBody = op.body
    ? { required: !op.optionalBody, content: { [JSON_TYPE]: { schema: R.components.has(op.body) ? outputSchema(op.body) : inputSchema(op.body) } } }
    : op.rawBody === 'multipart'
      ? { required: true, content: { 'multipart/form-data': { schema: { type: 'object', additionalProperties: true } } } }
      : op.rawBody === 'octets'
        ? { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }
        : undefined;
  const responses: Record<string, unknown> = {
    [op.status]: op.response ? { description: 'Success', content: { [JSON_TYPE]: { schema: outputSchema(op.response) } } } : { description: 'Success, no body' },
  };
  // Any operation may answer 429: server.ts takes each address's request budget before every
  // JSON route (lib/http/request-budget.ts; the byte routes, which skip it, are authenticated),
  // and a Bearer that is not a live session counts as a failed login.
  const errors = op.errors.includes(429) ? op.errors : [...op.errors, 429];
  for (const status of errors) responses[status] = errorResponse(status, op.violations ?? false);
  responses.default = { description: 'Internal error (no detail), or 503 while migrations are pending', content: { [JSON_TYPE]: { schema: { $ref: `${REF}Error` } } } };
  return {
    summary: op.summary,
    operationId: `${op.method.toLowerCase()}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    'x-htmls-auth': op.auth,
    'x-htmls-scope': op.scope,
    ...(op.uploadToken ? { 'x-htmls-upload-token': true } : {}),
    security: securityFor(op.auth, op.scope),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of Object.values(operations) as Op[]) (paths[op.path] ??= {})[op.method.toLowerCase()] = operation(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'htmls',
      version: '1.0.0',
      // As package.json: no open-source licence has been chosen (an SPDX reference to our own terms).
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
      description: 'Static hosting and share links for large files. x-htmls-auth: none, optional, session (member or administrator), member, admin.',
    },
    servers: [{ url: '/' }],
    paths: { ...paths, ...guestDownloadPaths() },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: BEARER },
        adminCookie: { type: 'apiKey', in: 'cookie', name: 'htmls_admin_session', description: 'The consoles\' session; counts only with the header X-Htmls-Account: admin (docs/security.md)' },
        userCookie: { type: 'apiKey', in: 'cookie', name: 'htmls_user_session', description: 'The consoles\' session; counts only with the header X-Htmls-Account: <the member\'s user id> (docs/security.md)' },
      },
    },
  };
}
