import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import type { S3Settings } from '../env';
import { useTestAppWith } from '../test/harness';
import { startTestBucket } from '../test/s3';
import { freePort } from '../test/server-process';

// Decision 067: with S3_BUCKET the app asks the bucket (HeadBucket) before it starts; a missing or unreachable one
// stops the start with one clear log line.

// The bucket is started before the app and closed after it.
const [t, bucket] = useTestAppWith(startTestBucket, () => []);

async function startWith(s3: S3Settings) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const started = buildApp({ database: t.database, config: { ...t.config, s3 }, logger: { level: 'info', stream } }).then(async (app) => {
    await app.ready();
    return app;
  });
  return { started, lines };
}

describe('the bucket at start-up', () => {
  it('an existing bucket: the app starts', async () => {
    const { started, lines } = await startWith(bucket().s3);
    const app = await started;
    expect(app.deps.storage.where).toContain(bucket().s3.bucket);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    await app.close();
  });

  it('a missing bucket: the start fails with a line naming it', async () => {
    const { started, lines } = await startWith({ ...bucket().s3, bucket: 'cmms-no-such-bucket' });
    await expect(started).rejects.toThrow('S3 bucket cmms-no-such-bucket does not exist');
    const fatal = lines.find((l) => l.level === 60);
    expect(fatal).toMatchObject({
      bucket: 'cmms-no-such-bucket',
      reason: 'does not exist',
      msg: 'uploads storage unavailable: S3 bucket cmms-no-such-bucket does not exist',
    });
    expect(fatal?.endpoint).toBe(bucket().s3.endpoint);
  });

  it('an unreachable endpoint: the start fails with a line saying so', { timeout: 60_000 }, async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const { started, lines } = await startWith({ ...bucket().s3, endpoint });
    await expect(started).rejects.toThrow(/S3 bucket .* is unreachable/);
    expect(lines.find((l) => l.level === 60)).toMatchObject({ bucket: bucket().s3.bucket, endpoint });
    // The keys are in no line.
    expect(JSON.stringify(lines)).not.toContain(bucket().s3.credentials!.secretAccessKey);
  });
});
