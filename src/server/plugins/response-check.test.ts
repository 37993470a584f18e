import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it, vi } from 'vitest';
import { z } from '../../shared/zod-setup';
import { checkingSerializerCompiler, firstDifference } from './response-check';

/** An app with one route answering `answer` under `schema`, serialized the tests' way or production's. */
async function answerOf(answer: unknown, schema: z.ZodType, checking: boolean) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(checking ? checkingSerializerCompiler : serializerCompiler);
  app.get('/thing', { schema: { response: { 200: schema } } }, async () => answer);
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const res = await app.inject({ method: 'GET', url: '/thing' });
    return { status: res.statusCode, body: res.json(), logged: errors.mock.calls.map((c) => String(c[0])) };
  } finally {
    errors.mockRestore();
    await app.close();
  }
}

const thing = z.object({ id: z.number(), asset: z.object({ name: z.string() }).nullable(), when: z.date() });

describe('responses checked against their schema in tests (issue 28)', () => {
  it('passes an answer the schema keeps whole, dates included', async () => {
    const res = await answerOf({ id: 1, asset: { name: 'Pump' }, when: new Date('2026-01-02T03:04:05Z') }, thing, true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 1, asset: { name: 'Pump' }, when: '2026-01-02T03:04:05.000Z' });
  });

  it('fails the request when the schema would drop a field, naming it; production drops it silently', async () => {
    const answer = { id: 1, asset: { name: 'Pump', code: 'P-1' }, when: new Date(0) };
    const checked = await answerOf(answer, thing, true);
    expect(checked.status).toBe(500);
    expect(checked.logged.join('\n')).toContain('GET /thing: the answer does not match its response schema at $.asset.code (not in the schema: dropped)');
    const production = await answerOf(answer, thing, false);
    expect(production.status).toBe(200);
    expect(production.body.asset).toEqual({ name: 'Pump' });
  });

  it('says where two answers differ', () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBeUndefined();
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: '2' }] })).toBe('$.a[1].b (changed by the schema)');
    expect(firstDifference({ a: 1 }, { a: 1, c: null })).toBe('$.c (added by the schema)');
    expect(firstDifference({ b: 1, a: 2 }, { a: 2, b: 1 })).toBeUndefined();
  });
});
