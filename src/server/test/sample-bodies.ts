import { dateFields } from '../../shared/dates';

/**
 * Builds a value that a route's zod schema accepts, by walking the schema (zod 4's `_zod.def`): each field gets
 * a plain valid value, references get `refId` (an id of the caller's own organisation). Tests use it to send
 * VALID bodies, so that a request is refused for the reason under test and not for its shape. Returns
 * undefined when the schema refuses what the walk built (the caller then needs a hand-written sample).
 */
/**
 * Every field the walk can fill (for a look at what it built when `sampleBody` gives up). Dates are far ahead
 * (2099), or with `past` in the recent past: what has happened, such as a time entry, ends by now (issue 45).
 */
export const sampleDraft = (schema: unknown, refId = 1, past = false) =>
  sampleOf(schema, { refId, key: '', past, pastFrom: Date.now() - 48 * 3_600_000, pastDates: { n: 0 } }, 0);

export function sampleBody(schema: unknown, refId = 1): unknown {
  // Dates ahead first (due dates, plans); a schema that refuses them all is walked again with past dates.
  return sampleWith(schema, refId, false) ?? sampleWith(schema, refId, true);
}

function sampleWith(schema: unknown, refId: number, past: boolean): unknown {
  const check = schema as { safeParse?: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } };
  if (!check.safeParse) return undefined;
  // Every field first; then the fields the schema complains about are dropped (optional ones with rules of their
  // own: a conditional date, a status with transitions) until it accepts the rest or a required one is missing.
  const body = sampleDraft(schema, refId, past);
  for (let round = 0; round < 10; round++) {
    const result = check.safeParse(body);
    if (result.success) return body;
    let dropped = false;
    for (const { path } of result.error!.issues) dropped = dropAt(body, path.slice(0, 1)) || dropped;
    if (!dropped) return undefined;
  }
  return undefined;
}

/** Removes the top-level field `path[0]` when the body has it. */
function dropAt(body: unknown, [key]: PropertyKey[]): boolean {
  if (!body || typeof body !== 'object' || key === undefined || !(key in body)) return false;
  delete (body as Record<PropertyKey, unknown>)[key];
  return true;
}

let counter = 0;
/** Later on each call, so a start comes before its end. */
const nextDate = () => new Date(Date.UTC(2099, 5, 1, 10) + ++counter * 3_600_000).toISOString();
/** In the past, an hour later on each call of the same walk: two days ago, plus at most a few hours. */
const pastDate = (ctx: Ctx) => new Date(ctx.pastFrom + ++ctx.pastDates.n * 3_600_000).toISOString();
const dateFor = (ctx: Ctx) => (ctx.past ? pastDate(ctx) : nextDate());

interface Ctx {
  refId: number;
  key: string;
  past: boolean;
  pastFrom: number;
  pastDates: { n: number };
}

interface Def {
  type: string;
  [k: string]: unknown;
}
const defOf = (s: unknown) => (s as { _zod?: { def: Def } })?._zod?.def;

/** A plain value for a field, read from its name when the type says little (`any` fields, strings with a shape). */
function byName(key: string, refId: number, ctx: Ctx): unknown {
  if (/email/i.test(key)) return 'sample@example.com';
  if (/phone|mobile/i.test(key)) return '+12345678901';
  if (/duration/i.test(key)) return '01:30';
  if (/password/i.test(key)) return 'Passw0rd!long';
  if (/date|time/i.test(key)) return dateFor(ctx);
  if (/(id|Id)$/.test(key)) return refId;
  if (/price|amount|cost|rate|quantity|stock|hours|tax|^value$/i.test(key)) return 1;
  return undefined;
}

function sampleOf(schema: unknown, ctx: Ctx, depth: number): unknown {
  const def = defOf(schema);
  if (!def || depth > 12) return undefined;
  if (dateFields.has(schema as never)) return dateFields.get(schema as never)?.kind === 'calendar-date' ? '2026-06-01' : dateFor(ctx);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        const v = sampleOf(field, { ...ctx, key }, depth + 1);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'pipe': {
      // A preprocess (transform in front) is checked by what comes out; a transform behind by what goes in.
      const into = defOf(def.in)?.type === 'transform' ? def.out : def.in;
      return sampleOf(into, ctx, depth + 1);
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sampleOf(def.innerType, ctx, depth + 1);
    case 'lazy':
      return sampleOf((def.getter as () => unknown)(), ctx, depth + 1);
    case 'union':
      return sampleOf((def.options as unknown[])[0], ctx, depth + 1);
    case 'intersection':
      return { ...(sampleOf(def.left, ctx, depth + 1) as object), ...(sampleOf(def.right, ctx, depth + 1) as object) };
    case 'array': {
      const min =
        (def.checks as { _zod: { def: { check: string; minimum?: number } } }[] | undefined)?.find((c) => c._zod.def.check === 'min_length')?._zod.def
          .minimum ?? 0;
      return [sampleOf(def.element, ctx, depth + 1)]
        .filter((v) => v !== undefined)
        .concat([])
        .slice(0, Math.max(1, min));
    }
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'boolean':
      return true;
    case 'number':
    case 'int':
    case 'bigint':
      return byName(ctx.key, ctx.refId, ctx) ?? 1;
    case 'date':
      return dateFor(ctx);
    case 'string':
      return stringFor(def, ctx);
    case 'any':
    case 'unknown':
      return byName(ctx.key, ctx.refId, ctx) ?? 'Sample';
    default:
      return byName(ctx.key, ctx.refId, ctx);
  }
}

function stringFor(def: Def, ctx: Ctx): string {
  const checks = ((def.checks as { _zod: { def: Record<string, unknown> } }[] | undefined) ?? []).map((c) => c._zod.def);
  if (checks.some((c) => c.format === 'email')) return 'sample@example.com';
  const named = byName(ctx.key, ctx.refId, ctx);
  if (typeof named === 'string') return named;
  if (typeof named === 'number') return String(named);
  const max = checks.find((c) => c.check === 'max_length')?.maximum as number | undefined;
  // Distinct values: codes and names are often unique per organisation.
  const min = (checks.find((c) => c.check === 'min_length')?.minimum as number | undefined) ?? 0;
  const value = `sample-${++counter}`.padEnd(min, 'x');
  return max !== undefined ? value.slice(0, Math.max(1, max)) : value;
}
