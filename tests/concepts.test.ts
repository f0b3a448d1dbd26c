import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { baseUrl, useFileServer } from './support/file-server';
import { call } from './support/http';
import { TEST_ADMIN_TOKEN } from './support/server';
import { registerMember } from './support/members';

// Next's pages: the schema file in public/.
useFileServer({}, { pages: true });

const uid = (p = 'c') => `${p}-${randomBytes(4).toString('hex')}`;
const post = (body: unknown) => call('POST', '/api/concepts', { token: TEST_ADMIN_TOKEN, body });

describe('GET /schemas/concept-1.0.json', () => {
  it('serves the draft 2020-12 schema, version 1.0', async () => {
    const r = await fetch(`${baseUrl()}/schemas/concept-1.0.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/json/);
    const schema = await r.json();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toMatch(/\/schemas\/concept-1\.0\.json$/);
    expect(schema.required).toEqual(['id', 'name']);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('concepts', () => {
  it('stores valid documents, reads them back, lists by tag, replaces and deletes', async () => {
    const a = uid();
    const b = uid();
    const tag = uid('tag');
    const ra = await post({ id: a, name: 'Alpha', tags: [tag, 'x'], metadata: { author: 'Ada', source: 'notes', extra: [1, 2] } });
    expect(ra.status).toBe(201);
    expect(ra.json.concept).toMatchObject({ id: a, name: 'Alpha', tags: [tag, 'x'], metadata: { author: 'Ada', extra: [1, 2] } });
    expect(Date.parse(ra.json.concept.created_at)).toBeGreaterThan(0);
    const rb = await post({
      id: b,
      name: 'Beta',
      description: 'Depends on alpha',
      tags: [tag],
      created_at: '2026-01-02T03:04:05Z',
      relations: [{ target_id: a, type: 'depends_on', confidence: 0.5 }, { target_id: b, type: 'self', confidence: 1 }],
    });
    expect(rb.status).toBe(201);
    expect(rb.json.concept.created_at).toBe('2026-01-02T03:04:05Z');
    expect((await call('GET', `/api/concepts/${b}`, { token: TEST_ADMIN_TOKEN })).json.concept.relations).toHaveLength(2);
    const byTag = await call('GET', `/api/concepts?tag=${tag}`, { token: TEST_ADMIN_TOKEN });
    expect(byTag.json.concepts.map((c: { id: string }) => c.id)).toEqual([a, b].sort());
    const put = await call('PUT', `/api/concepts/${a}`, { token: TEST_ADMIN_TOKEN, body: { id: a, name: 'Alpha 2' } });
    expect(put.status).toBe(200);
    expect(put.json.concept).toMatchObject({ name: 'Alpha 2', created_at: ra.json.concept.created_at });
    expect((await call('GET', `/api/concepts?tag=${tag}`, { token: TEST_ADMIN_TOKEN })).json.concepts.map((c: { id: string }) => c.id)).toEqual([b]);
    expect((await call('DELETE', `/api/concepts/${a}`, { token: TEST_ADMIN_TOKEN })).status).toBe(204);
    expect((await call('GET', `/api/concepts/${a}`, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
    expect((await call('DELETE', `/api/concepts/${a}`, { token: TEST_ADMIN_TOKEN })).status).toBe(404);
  });

  it.each([
    ['missing id', { name: 'x' }, '/id'],
    ['missing name', { id: 'x1' }, '/name'],
    ['an extra top-level property', { id: 'x2', name: 'x', colour: 'red' }, '/colour'],
    ['id of the wrong type', { id: 5, name: 'x' }, '/id'],
    ['tags not strings', { id: 'x3', name: 'x', tags: ['ok', 7] }, '/tags/1'],
    ['an empty name', { id: 'x9', name: '' }, '/name'],
    ['description of the wrong type', { id: 'x10', name: 'x', description: ['a'] }, '/description'],
    ['relations not an array', { id: 'x11', name: 'x', relations: { target_id: 'x11', type: 't' } }, '/relations'],
    ['metadata not an object', { id: 'x12', name: 'x', metadata: 'Ada' }, '/metadata'],
    ['a confidence that is a string', { id: 'x13', name: 'x', relations: [{ target_id: 'x13', type: 't', confidence: '0.5' }] }, '/relations/0/confidence'],
    ['a negative confidence', { id: 'x14', name: 'x', relations: [{ target_id: 'x14', type: 't', confidence: -0.1 }] }, '/relations/0/confidence'],
    ['a bad date-time', { id: 'x4', name: 'x', created_at: 'yesterday' }, '/created_at'],
    ['a relation without type', { id: 'x5', name: 'x', relations: [{ target_id: 'x5' }] }, '/relations/0/type'],
    ['confidence above 1', { id: 'x6', name: 'x', relations: [{ target_id: 'x6', type: 't', confidence: 1.5 }] }, '/relations/0/confidence'],
    ['an extra property in a relation', { id: 'x7', name: 'x', relations: [{ target_id: 'x7', type: 't', weight: 2 }] }, '/relations/0/weight'],
    ['metadata.author not a string', { id: 'x8', name: 'x', metadata: { author: 42 } }, '/metadata/author'],
    ['metadata.source not a string', { id: 'x15', name: 'x', metadata: { source: null } }, '/metadata/source'],
    ['not an object at all', ['id', 'name'], ''],
  ])('rejects %s with its path', async (_label, body, path) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('invalid_request');
    expect(r.json.violations.map((v: { path: string }) => v.path)).toContain(path);
  });

  it('lists every violation at once', async () => {
    const r = await post({ name: 5, tags: 'x', relations: [{ type: 3, confidence: -1 }], extra: true });
    expect(r.status).toBe(400);
    const paths = r.json.violations.map((v: { path: string }) => v.path).sort();
    expect(paths).toEqual(expect.arrayContaining(['/id', '/name', '/tags', '/relations/0/target_id', '/relations/0/type', '/relations/0/confidence', '/extra']));
  });

  it('refuses a relation to a missing concept, a duplicate id, and a PUT that changes the id', async () => {
    const id = uid();
    const missing = await post({ id, name: 'x', relations: [{ target_id: 'does-not-exist', type: 't' }] });
    expect(missing.status).toBe(400);
    expect(missing.json.violations).toEqual([{ path: '/relations/0/target_id', message: 'no concept "does-not-exist" exists' }]);
    expect((await post({ id, name: 'x' })).status).toBe(201);
    const dup = await post({ id, name: 'again' });
    expect([dup.status, dup.json.code]).toEqual([409, 'conflict']);
    const renamed = await call('PUT', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN, body: { id: `${id}-other`, name: 'x' } });
    expect(renamed.status).toBe(400);
    expect((await call('PUT', '/api/concepts/nope-nope', { token: TEST_ADMIN_TOKEN, body: { id: 'nope-nope', name: 'x' } })).status).toBe(404);
  });

  it('keeps given times, fills absent ones, and bumps updated_at on PUT', async () => {
    const id = uid();
    const given = { created_at: '2025-05-05T05:05:05Z', updated_at: '2025-06-06T06:06:06.5+02:00' };
    const r = await post({ id, name: 'x', ...given });
    expect(r.json.concept).toMatchObject(given);
    const before = Date.now();
    const put = await call('PUT', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN, body: { id, name: 'y' } });
    expect(put.json.concept.created_at).toBe(given.created_at);
    // Same machine, same clock; a second of slack for rounding.
    expect(Date.parse(put.json.concept.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await call('GET', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN })).json.concept).toEqual(put.json.concept);
    const own = await call('PUT', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN, body: { id, name: 'z', created_at: '2020-01-01T00:00:00Z' } });
    expect(own.json.concept.created_at).toBe('2020-01-01T00:00:00Z');
  });

  it('accepts confidence 0 and 1 (inclusive bounds) and unknown metadata keys', async () => {
    const id = uid();
    const r = await post({
      id,
      name: 'bounds',
      relations: [{ target_id: id, type: 'a', confidence: 0 }, { target_id: id, type: 'b', confidence: 1 }],
      metadata: { author: 'A', source: 'S', reviewed: true, nested: { deep: [1] } },
    });
    expect(r.status).toBe(201);
    expect(r.json.concept.relations.map((x: { confidence: number }) => x.confidence)).toEqual([0, 1]);
  });

  it('GET /api/concepts — sorted by id in byte order, whatever the database locale', async () => {
    const tag = uid('order');
    const ids = [`${tag}-b`, `${tag}-B`, `${tag}-_`, `${tag}-a`, `${tag}-A1`];
    for (const id of ids) expect((await post({ id, name: id, tags: [tag] })).status).toBe(201);
    const r = await call('GET', `/api/concepts?tag=${tag}`, { token: TEST_ADMIN_TOKEN });
    expect(r.json.concepts.map((c: { id: string }) => c.id)).toEqual([...ids].sort());
    expect((await call('GET', `/api/concepts?tag=${uid('none')}`, { token: TEST_ADMIN_TOKEN })).json).toEqual({ concepts: [] });
  });

  it('PUT /api/concepts/:id — lists a changed id with the schema violations, and checks relation targets', async () => {
    const id = uid();
    expect((await post({ id, name: 'x' })).status).toBe(201);
    const both = await call('PUT', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN, body: { id: `${id}-2`, name: 'x', colour: 'red' } });
    expect(both.status).toBe(400);
    expect(both.json.violations.map((v: { path: string }) => v.path).sort()).toEqual(['/colour', '/id']);
    const dangling = await call('PUT', `/api/concepts/${id}`, {
      token: TEST_ADMIN_TOKEN,
      body: { id, name: 'x', relations: [{ target_id: id, type: 'self' }, { target_id: `${id}-gone`, type: 't' }] },
    });
    expect(dangling.status).toBe(400);
    expect(dangling.json.violations).toEqual([{ path: '/relations/1/target_id', message: `no concept "${id}-gone" exists` }]);
    expect((await call('GET', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN })).json.concept.relations).toBeUndefined();
  });

  it('is for the administrator only: members 403, anonymous 401, on every route', async () => {
    const m = await registerMember();
    const id = uid();
    expect((await post({ id, name: 'x' })).status).toBe(201);
    const ops: [string, string, unknown?][] = [
      ['GET', '/api/concepts'],
      ['POST', '/api/concepts', { id: uid(), name: 'm' }],
      ['GET', `/api/concepts/${id}`],
      ['PUT', `/api/concepts/${id}`, { id, name: 'm' }],
      ['DELETE', `/api/concepts/${id}`],
    ];
    for (const [method, path, body] of ops) {
      const asMember = await call(method, path, { token: m.token, body });
      expect([method, path, asMember.status, asMember.json.code]).toEqual([method, path, 403, 'forbidden']);
      const anonymous = await call(method, path, { body });
      expect([method, path, anonymous.status, anonymous.json.code]).toEqual([method, path, 401, 'unauthenticated']);
    }
    expect((await call('GET', `/api/concepts/${id}`, { token: TEST_ADMIN_TOKEN })).json.concept.name).toBe('x');
  });
});
