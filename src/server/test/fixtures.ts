import { inflateRawSync } from 'node:zlib';
import { SMTPServer } from 'smtp-server';
import type { catalogue } from '../../features/maintenance-requests/test-fixtures';
import { inDays } from '../../features/commercial-documents/test-fixtures';
import { freePort } from './server-process';

/**
 * What several test files build alike: request bodies, uploads, a real SMTP server and a wait for a
 * condition. Rows of other areas that records point to stay in the features' `test-fixtures.ts`.
 */

type Catalogue = Awaited<ReturnType<typeof catalogue>>;

/** What the requests below share: by an employee, on the asset, assigned to the admin (user 1). */
const employeeRequest = (refs: Pick<Catalogue, 'asset'>) => ({
  requester: 'employee',
  assignedTo: 1,
  dateOfRequest: '2026-03-10T08:00:00.000Z',
  assetId: refs.asset.id,
});

/** A complete corrective maintenance request by an employee, assigned to the admin (user 1). */
export function correctiveRequest(refs: Pick<Catalogue, 'asset'>, extra: Record<string, unknown> = {}) {
  return {
    ...employeeRequest(refs),
    title: 'Conveyor belt slipping',
    problemDescription: 'The belt on line 2 slips under load',
    maintenanceType: 'corrective',
    priority: 'high',
    failureReason: 'Worn belt',
    urgencyLevel: 'high',
    riskLevel: 'medium',
    ...extra,
  };
}

/** A complete quarterly preventive maintenance request, assigned to the admin (user 1). */
export function preventiveRequest(refs: Pick<Catalogue, 'asset'>, extra: Record<string, unknown> = {}) {
  return {
    ...employeeRequest(refs),
    title: 'Quarterly pump service',
    problemDescription: 'Planned quarterly service of the boiler pump',
    maintenanceType: 'preventive',
    priority: 'medium',
    riskLevel: 'low',
    scheduleDate: '2026-04-01T00:00:00.000Z',
    frequency: 'quarterly',
    ...extra,
  };
}

/** A maintenance order for an approved request: one service and one part, scheduled from tomorrow. */
export function maintenanceOrder(refs: Pick<Catalogue, 'asset' | 'service' | 'part'>, maintenanceRequestId: number, extra: Record<string, unknown> = {}) {
  return {
    maintenanceRequestId,
    maintenanceType: 'preventive',
    assetId: refs.asset.id,
    services: [refs.service.id],
    parts: [refs.part.id],
    scheduleDate: inDays(1),
    dueDate: inDays(7),
    completionDate: inDays(8),
    rootCauseAnalysis: 'Bearing wear from misalignment',
    ...extra,
  };
}

/** The smallest PDF file-type detection accepts. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

export interface UploadFile {
  field: string;
  name: string;
  bytes: Buffer;
  type: string;
}

/** A multipart/form-data body of text fields and files, as the SPA's forms send it. */
export function multipart(files: UploadFile[], fields: Record<string, string> = {}) {
  const boundary = `----cmms${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of files) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Waits until `done` holds, looking every 50 ms; throws after `ms` (a deadline, not a pause). */
export async function until(done: () => boolean | Promise<boolean>, ms = 15_000) {
  for (const end = Date.now() + ms; !(await done()); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ReceivedMail {
  to: string[];
  /** The message as sent (headers and quoted-printable body). */
  raw: string;
  /** The body decoded from quoted-printable. */
  text: string;
}

/**
 * A real SMTP server on loopback (no TLS, no authentication) that keeps what it receives in `inbox`.
 * `refuse(address)`: answer that recipient with a temporary 451 this time.
 */
export async function startSmtpServer(options: { refuse?: (address: string) => boolean } = {}) {
  const inbox: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, done) {
      if (options.refuse?.(address.address)) return done(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      done();
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c) => (raw += String(c)));
      stream.on('end', () => {
        const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, text });
        done();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** The mails received for `address`. */
    received: (address: string) => inbox.filter((m) => m.to.includes(address)),
    /** The first mail to `address`, waited for. */
    async mailTo(address: string) {
      await until(() => inbox.some((m) => m.to.includes(address)));
      return inbox.find((m) => m.to.includes(address))!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The entries of a ZIP (its central directory), each inflated. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries = new Map<string, Buffer>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = zip.readUInt16LE(end + 10); i > 0; i--) {
    const [method, size, nameLength, extraLength, commentLength, local] = [
      zip.readUInt16LE(at + 10),
      zip.readUInt32LE(at + 20),
      zip.readUInt16LE(at + 28),
      zip.readUInt16LE(at + 30),
      zip.readUInt16LE(at + 32),
      zip.readUInt32LE(at + 42),
    ];
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    entries.set(name, method === 8 ? inflateRawSync(data) : data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** A daily plan "Daily" (order "Check the pump") on the asset from 2031-05-03. */
export const dailyPlan = (assetId: number) => ({ name: 'Daily', assetIds: [assetId], title: 'Check the pump', frequency: 'daily', startDate: '2031-05-03' });

/** A weekly plan "Weekly lubrication" (Mondays, fixed, from 2030-03-01, high priority) on the asset for one assignee. */
export const weeklyPlan = (assetId: number, assignee: number, extra: Record<string, unknown> = {}) => ({
  name: 'Weekly lubrication',
  assetIds: [assetId],
  title: 'Lubricate bearings',
  priority: 'high',
  assignees: [assignee],
  trigger: 'calendar',
  frequency: 'weekly',
  interval: 1,
  weekdays: ['MO'],
  schedule: 'fixed',
  startDate: '2030-03-01',
  leadDays: 0,
  ...extra,
});
