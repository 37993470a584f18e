import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { projectingSerializerCompiler } from './response-projection';

/** The first place where two JSON values differ, as a path (`$.workOrders[0].asset.name`), or undefined. */
export function firstDifference(given: unknown, sent: unknown, path = '$'): string | undefined {
  if (isDeepStrictEqual(given, sent)) return undefined;
  if (Array.isArray(given) && Array.isArray(sent) && given.length === sent.length) {
    for (let i = 0; i < given.length; i++) {
      const d = firstDifference(given[i], sent[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  if (given && sent && typeof given === 'object' && typeof sent === 'object' && !Array.isArray(given) && !Array.isArray(sent)) {
    const a = given as Record<string, unknown>;
    const b = sent as Record<string, unknown>;
    for (const key of Object.keys(a)) if (!(key in b)) return `${path}.${key} (not in the schema: dropped)`;
    for (const key of Object.keys(b)) if (!(key in a)) return `${path}.${key} (added by the schema)`;
    for (const key of Object.keys(a)) {
      const d = firstDifference(a[key], b[key], `${path}.${key}`);
      if (d) return d;
    }
  }
  return `${path} (changed by the schema)`;
}

/**
 * The serializer of the API tests (issue 28: "responses are validated in tests against" the OpenAPI document):
 * fastify-type-provider-zod parses the answer with the route's response schema (throws when it does not match,
 * strips the keys it does not list), then two checks. The schema kept the answer whole: a field the schema forgot
 * would silently leave every answer in production; here the request fails with a 500 and the field's path is
 * printed. And production's projection (response-projection.ts) writes exactly what the parse wrote, so the
 * whole suite runs through it. Only for routes that declare their response.
 */
export const checkingSerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  const project = projectingSerializerCompiler(route as never);
  const fail = (message: string) => {
    console.error(message);
    throw new Error(message);
  };
  return (data: unknown) => {
    const out = serialize(data);
    const difference = firstDifference(JSON.parse(JSON.stringify(data) ?? 'null'), JSON.parse(out));
    if (difference) fail(`${route.method} ${route.url}: the answer does not match its response schema at ${difference}`);
    const projected = project(data);
    if (projected !== out) fail(`${route.method} ${route.url}: the projection wrote ${projected.slice(0, 200)}, the schema's parse ${out.slice(0, 200)}`);
    return out;
  };
};
