import { isDeepStrictEqual } from 'node:util';
import { serializerCompiler } from 'fastify-type-provider-zod';

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
 * The serializer of the API tests (issue 28: "responses are validated in tests against" the OpenAPI document): the
 * production one (fastify-type-provider-zod parses the answer with the route's response schema, throws when it does
 * not match and strips the keys it does not list), plus a check that the schema kept the answer whole. A field the
 * schema forgot would silently leave every answer in production; here the request fails with a 500 and the path of
 * the field is printed. Only for routes that declare their response (the others are not serialized by a schema).
 */
export const checkingSerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  return (data: unknown) => {
    const out = serialize(data);
    const difference = firstDifference(JSON.parse(JSON.stringify(data) ?? 'null'), JSON.parse(out));
    if (difference) {
      const message = `${route.method} ${route.url}: the answer does not match its response schema at ${difference}`;
      console.error(message);
      throw new Error(message);
    }
    return out;
  };
};
