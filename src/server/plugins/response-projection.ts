import type { FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * The production serializer of answers (decision 051): each route's response schema compiled once into a
 * projection that copies what the schema declares (object keys, array items, record values) and nothing else, then
 * JSON.stringify. No key a schema does not list ever leaves the server, as with zod's parse, at a fifth of its
 * cost: parsing re-validated every string and number of every answer (a work-order page: ~30 us of a request's
 * ~500 us). Whether the values match their types is the API tests' job: there `checkingSerializerCompiler`
 * parses each answer with zod, fails when parsing would change it, and checks that this projection gives the same.
 */
type Project = (value: unknown) => unknown;

const identity: Project = (value) => value;
/** Kinds whose value is written as it is (JSON.stringify turns a Date into its ISO text, as zod's output would). */
const LEAVES = new Set(['string', 'number', 'boolean', 'bigint', 'date', 'enum', 'literal', 'null', 'undefined', 'any', 'unknown', 'nan', 'template_literal']);

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** True when no object, array or record is inside: the value is written as it is. */
function isFlat(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (LEAVES.has(def.type)) return true;
  if (def.type === 'nullable' || def.type === 'optional' || def.type === 'readonly') return isFlat(def.innerType!);
  if (def.type === 'union') return def.options!.every(isFlat);
  return false;
}

export function projection(schema: z.ZodType): Project {
  if (isFlat(schema)) return identity;
  const def = defOf(schema);
  switch (def.type) {
    case 'nullable':
    case 'optional':
    case 'readonly': {
      const inner = projection(def.innerType!);
      return (value) => (value === null || value === undefined ? value : inner(value));
    }
    case 'object': {
      // An object that lets other keys through (looseObject) is copied as zod would: whole.
      if (def.catchall && defOf(def.catchall).type !== 'never') break;
      // Compiled into one object literal per schema (new Function over the schema's own keys, each quoted by
      // JSON.stringify): V8 builds every row with one hidden class. A 25-row work-order page takes ~7 us so,
      // against ~35 for zod's parse; copying key by key into `{}` took ~140 (dictionary-mode objects). A field is
      // read whether present or not, so a field with a default gets it, as from zod; an undefined one is left out
      // by JSON.stringify.
      const fields = Object.entries(def.shape!).map(([key, field]) => [key, projection(field)] as const);
      const body = fields.map(
        ([key, project], i) => `${JSON.stringify(key)}: ${project === identity ? `v[${JSON.stringify(key)}]` : `p[${i}](v[${JSON.stringify(key)}])`}`,
      );
      const literal = new Function('p', `return (v) => v === null || typeof v !== 'object' ? v : ({ ${body.join(', ')} });`);
      return literal(fields.map(([, project]) => project)) as Project;
    }
    case 'array': {
      const item = projection(def.element!);
      return (value) => (Array.isArray(value) ? value.map(item) : value);
    }
    case 'record': {
      const item = projection(def.valueType!);
      return (value) => {
        if (value === null || typeof value !== 'object') return value;
        const out: Record<string, unknown> = {};
        for (const [key, field] of Object.entries(value)) out[key] = item(field);
        return out;
      };
    }
  }
  // Unions of objects, transforms, defaults, lazy schemas: zod's own parse, for exactly its output.
  return (value) => schema.parse(value);
}

/** The schema of a response status as Fastify hands it over (a zod schema, or one wrapped in `properties`). */
function zodOf(schema: unknown): z.ZodType {
  const candidate = schema as { _zod?: unknown; properties?: { _zod?: unknown } };
  if (candidate?._zod) return schema as z.ZodType;
  if (candidate?.properties?._zod) return candidate.properties as unknown as z.ZodType;
  throw new Error(`Not a zod response schema: ${JSON.stringify(schema)}`);
}

export const projectingSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const project = projection(zodOf(schema));
  return (data) => JSON.stringify(project(data));
};
