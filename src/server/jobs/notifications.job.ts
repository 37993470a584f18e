import type { Database } from '../db/client';
import { withoutTenant, withTenant } from '../db/client';
import { organizations } from '../db/schema';
import { now as clockNow } from '../clock';
import { checkDueWork, dispatchDue, type DispatchDeps } from '../../features/notifications/notifications.dispatch';
import type { GeneratorLog } from './pm-generator.job';
import { scheduleJob, runTime, type JobQueue } from './queue';
import { eachOrganisation } from './per-organisation';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows';
import { organisationsWithDueWork, type PreviousRun } from '../../features/notifications/notifications.due-orgs';

export const NOTIFICATIONS_QUEUE = 'notifications';
/**
 * Every minute (NOTIFICATIONS_CRON overrides it): the scheduled checks (due soon, overdue) and the messages that
 * are due (coalesced ones a few minutes after their first event, digests at the digest hour, held mail after
 * quiet hours). Decision 074.
 */
export const NOTIFICATIONS_CRON = '* * * * *';

/** The previous run of this process (a run of another instance in between only widens the next window). */
let previousRun: PreviousRun | undefined;
/** Forgets the previous run: the next one walks every organisation (tests that move the clock back). */
export const forgetPreviousRun = () => (previousRun = undefined);

/**
 * One run, each organisation with work in a transaction of its own (as the PM generator, decision 032): the
 * checks first, so that an event they find and whose message is already due leaves in the same run. The first
 * run of a process (or one whose clock went back) walks every organisation; later ones only those with messages
 * due or work whose due moment was crossed or that changed since (`organisationsWithDueWork`, indexed).
 */
export async function runNotifications(database: Database, deps: DispatchDeps, log?: GeneratorLog, at: Date = clockNow()) {
  const previous = previousRun && previousRun.at.getTime() <= at.getTime() ? previousRun : undefined;
  const { orgIds, dbNow } = await withoutTenant(database.db, async (tx) => {
    const [{ now }] = rowsOf<{ now: string | Date }>(await tx.execute(sql`select now() as now`));
    const ids = previous ? await organisationsWithDueWork(tx, at, previous) : (await tx.select({ id: organizations.id }).from(organizations)).map((o) => o.id);
    return { orgIds: ids, dbNow: new Date(now) };
  });
  const total = { checked: 0, emails: 0, pushes: 0, held: 0, skipped: 0 };
  const failed = await eachOrganisation(orgIds, 'notifications', log, (orgId) =>
    withTenant(database.db, orgId, async (tx) => {
      total.checked += await checkDueWork(tx, orgId, at);
      const sent = await dispatchDue(tx, orgId, deps, at);
      total.emails += sent.emails;
      total.pushes += sent.pushes;
      total.held += sent.held;
      total.skipped += sent.skipped;
    }),
  );
  // A failed organisation keeps the previous window, so the next run looks at its work again.
  if (!failed.length) previousRun = { at, dbNow };
  if (total.emails || total.pushes || total.held) log?.info(total, 'notifications run done');
  if (failed.length) throw new Error(`notifications: ${failed.length} organisation(s) failed: ${failed.slice(0, 10).join(', ')}`);
  return total;
}

export async function registerNotifications(
  queue: JobQueue,
  database: Database,
  deps: DispatchDeps,
  log: GeneratorLog,
  cron = process.env.NOTIFICATIONS_CRON || NOTIFICATIONS_CRON,
) {
  await scheduleJob<{ at: string }>(queue, NOTIFICATIONS_QUEUE, cron, { retryLimit: 2, retryDelay: 30, expireInSeconds: 10 * 60 }, async (data) => {
    await runNotifications(database, deps, log, runTime(data?.at));
  });
}
