import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from './support/server';

/** Every (METHOD, /api/path) that has a route file, read from app/api/**\/route.ts. */
function routeOperations(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'route.ts') {
        const apiPath = `/${path.relative(path.join(ROOT, 'app'), path.dirname(p)).split(path.sep).join('/')}`.replace(/\[(\w+)\]/g, '{$1}');
        const src = readFileSync(p, 'utf8');
        for (const m of src.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)) out.push(`${m[1]} ${apiPath}`);
      }
    }
  };
  walk(path.join(ROOT, 'app/api'));
  return out.sort();
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const r = await fetch(`${inject('baseUrl')}/api/openapi.json`);
    expect(r.status).toBe(200);
    const doc = await r.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents exactly the routes that exist', async () => {
    const doc = await (await fetch(`${inject('baseUrl')}/api/openapi.json`)).json();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    expect(documented).toEqual(routeOperations());
  });

  it('describes request bodies from the schemas the routes validate with', async () => {
    const doc = await (await fetch(`${inject('baseUrl')}/api/openapi.json`)).json();
    const init = doc.paths['/api/shares/upload/init'].post.requestBody.content['application/json'].schema;
    expect(init.required).toContain('files');
    expect(init.properties.files.items.required).toEqual(expect.arrayContaining(['clientPath', 'size']));
    const register = doc.paths['/api/auth/register'].post.requestBody.content['application/json'].schema;
    expect(register.properties.password).toMatchObject({ minLength: 8, maxLength: 256 });
    expect(doc.components.schemas.Error.required).toEqual(['error', 'code']);
  });
});
