import { randomUUID } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { FastifyInstance } from 'fastify';

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  pdf: 'application/pdf',
};

/** Where uploaded files live. A folder today; the interface leaves room for S3. */
export interface Storage {
  /** Stores bytes under the organisation and returns the public URL path (`/uploads/...`). */
  put(orgId: number | 'public', bytes: Buffer, ext: keyof typeof CONTENT_TYPES): Promise<string>;
  /** The bytes behind a URL `put` returned, or null when there is none (e.g. a logo for a printed document). */
  read?(url: string): Promise<Buffer | null>;
  routes(): (app: FastifyInstance) => Promise<void>;
}

export function createStorage(root: string): Storage {
  return {
    async put(orgId, bytes, ext) {
      const dir = join(root, `org-${orgId}`);
      await mkdir(dir, { recursive: true });
      const name = `${randomUUID()}.${ext}`;
      await writeFile(join(dir, name), bytes);
      return `/uploads/org-${orgId}/${name}`;
    },
    async read(url) {
      const match = /^\/uploads\/(org-(?:\d+|public)\/[0-9a-f-]{36}\.(?:webp|png|jpg|pdf))$/.exec(url);
      if (!match) return null;
      return readFile(join(root, match[1])).catch(() => null);
    },
    routes() {
      return async (app) => {
        // Names are random UUIDs (capability URLs), so <img> tags need no token.
        app.get('/*', { config: { access: 'public' } }, async (req, reply) => {
          const rel = normalize((req.params as { '*': string })['*']);
          const match = /^org-(\d+|public)\/[0-9a-f-]{36}\.(webp|png|jpg|pdf)$/.exec(rel);
          const file = match ? join(root, rel) : '';
          if (!match || !existsSync(file)) return reply.status(404).send({ error: 'Not found' });
          return reply
            .header('content-type', CONTENT_TYPES[match[2]])
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "default-src 'none'; sandbox")
            .header('cache-control', 'private, max-age=86400')
            .send(createReadStream(file));
        });
      };
    },
  };
}
