import { drizzle } from 'drizzle-orm/node-postgres';
import { drizzle as dl } from 'drizzle-orm/pglite';
const client = { query: async () => ({ rows: [] }) };
for (const [name, f] of [['pg', () => drizzle({ client: client as never, casing: 'snake_case' })], ['pglite', () => dl({ client: client as never, casing: 'snake_case' })]] as const) {
  for (let r = 0; r < 3; r++) { const t = performance.now(); for (let i = 0; i < 20000; i++) f(); console.log(name, ((performance.now() - t) / 20000 * 1000).toFixed(2), 'us'); }
}
