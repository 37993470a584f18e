/**
 * The API's breaking changes between two OpenAPI documents (issue 28, decision 049): what a client of the older
 * document relies on and the newer one no longer offers. Additions (paths, methods, optional request fields,
 * response fields) are allowed.
 */
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The types a schema admits ('string', 'null', 'object'…), as a set; empty when it admits anything. */
function typesOf(schema: Json | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema || typeof schema !== 'object') return types;
  for (const key of ['anyOf', 'oneOf'] as const) {
    for (const s of schema[key] ?? []) {
      const branch = typesOf(s);
      // One branch that admits anything (a date's `{}`) makes the union admit anything: `{} | null` is no narrowing.
      if (branch.size === 0) return new Set();
      for (const t of branch) types.add(t);
    }
  }
  for (const s of schema.allOf ?? []) for (const t of typesOf(s)) types.add(t);
  if (schema.type) for (const t of [schema.type].flat()) types.add(t === 'integer' ? 'number' : t);
  if (schema.const !== undefined) types.add(schema.const === null ? 'null' : typeof schema.const);
  if (schema.enum) for (const v of schema.enum) types.add(v === null ? 'null' : typeof v);
  // `{ nullable: true }` alone (a clearable date) admits anything, null too: no narrowing to null.
  if (schema.nullable && types.size > 0) types.add('null');
  return types;
}

interface Field {
  types: Set<string>;
  required: boolean;
}

/**
 * Every field a schema describes, by path (`workOrders[].asset.name`; the root is ''), with its types and whether it
 * is required (present in every answer, or demanded in every request). A union's branches add their fields.
 */
export function fieldsOf(schema: Json | undefined, path = '', required = true, out = new Map<string, Field>()): Map<string, Field> {
  if (!schema || typeof schema !== 'object') return out;
  const here = out.get(path);
  const types = typesOf(schema);
  if (here) {
    // An empty set admits anything: a branch that admits anything makes it so, and no branch narrows it.
    if (types.size === 0) here.types.clear();
    else if (here.types.size > 0) for (const t of types) here.types.add(t);
    here.required &&= required;
  } else out.set(path, { types, required });
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) for (const s of schema[key] ?? []) fieldsOf(s, path, required, out);
  const needed = new Set<string>(schema.required ?? []);
  for (const [name, s] of Object.entries<Json>(schema.properties ?? {})) fieldsOf(s, path ? `${path}.${name}` : name, needed.has(name), out);
  if (schema.items) fieldsOf(schema.items, `${path}[]`, true, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') fieldsOf(schema.additionalProperties, `${path}{}`, false, out);
  return out;
}

/** The request fields of one operation: parameters (`query:page`, `path:id`) and the JSON body's (`body:name`). */
function requestFields(op: Json): Map<string, Field> {
  const out = new Map<string, Field>();
  for (const p of op.parameters ?? []) out.set(`${p.in}:${p.name}`, { types: typesOf(p.schema), required: !!p.required });
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body) for (const [path, f] of fieldsOf(body)) out.set(`body${path ? ':' + path : ''}`, { ...f, required: f.required && !!op.requestBody.required });
  return out;
}

const list = (types: Set<string>) => [...types].sort().join('|') || 'any';
const subset = (a: Set<string>, b: Set<string>) => b.size === 0 || (a.size > 0 && [...a].every((t) => b.has(t)));

/** The breaking changes from `before` to `after`, one sentence each; empty when every client of `before` still works. */
export function breakingChanges(before: Json, after: Json): string[] {
  const problems: string[] = [];
  for (const [path, ops] of Object.entries<Json>(before.paths ?? {})) {
    for (const method of Object.keys(ops).filter((m) => METHODS.includes(m))) {
      const name = `${method.toUpperCase()} ${path}`;
      const now = after.paths?.[path]?.[method];
      if (!now) {
        problems.push(`${name}: the route is gone`);
        continue;
      }
      // A request the old document allowed must still be allowed: no field gone, none narrowed, none newly required.
      const oldRequest = requestFields(ops[method]);
      const newRequest = requestFields(now);
      for (const [field, old] of oldRequest) {
        const cur = newRequest.get(field);
        if (!cur) problems.push(`${name}: request field ${field} is gone`);
        else if (!subset(old.types, cur.types)) problems.push(`${name}: request field ${field} changed type from ${list(old.types)} to ${list(cur.types)}`);
        else if (cur.required && !old.required) problems.push(`${name}: request field ${field} is now required`);
      }
      for (const [field, cur] of newRequest) if (cur.required && !oldRequest.has(field)) problems.push(`${name}: new required request field ${field}`);
      // An answer the old document described must still come: no status, field or type gone, nothing that was always there now optional.
      for (const [status, response] of Object.entries<Json>(ops[method].responses ?? {})) {
        const oldSchema = response?.content?.['application/json']?.schema;
        if (!oldSchema) continue;
        const newSchema = now.responses?.[status]?.content?.['application/json']?.schema;
        if (!newSchema) {
          problems.push(`${name}: the ${status} answer is no longer described`);
          continue;
        }
        const current = fieldsOf(newSchema);
        for (const [field, old] of fieldsOf(oldSchema)) {
          const label = `${name}: ${status} answer's ${field || 'body'}`;
          const cur = current.get(field);
          if (!cur) problems.push(`${label} is gone`);
          else if (!subset(cur.types, old.types)) problems.push(`${label} changed type from ${list(old.types)} to ${list(cur.types)}`);
          else if (old.required && !cur.required) problems.push(`${label} is no longer always present`);
        }
      }
    }
  }
  return problems;
}
