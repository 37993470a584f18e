import type { Database } from '../db/client';
import type { Mailer } from '../mailer';
import { scheduleJob, type JobQueue } from './queue';
import { runInsightsReports } from '../../features/insights-reports/insights-reports.service';

export const INSIGHTS_REPORTS_QUEUE = 'insights-reports';
/** Every 10 minutes (INSIGHTS_REPORTS_CRON overrides it); reports leave at 07:00 local, so within 10 minutes of it. */
export const INSIGHTS_REPORTS_CRON = '*/10 * * * *';

/** The queue, its schedule and its worker (decision 075). A failed run is retried 3 times, a minute apart; nothing goes twice (each report's send is claimed). */
export async function registerInsightsReports(queue: JobQueue, database: Database, mailer: Mailer, log: { warn(obj: object, msg: string): void }) {
  const cron = process.env.INSIGHTS_REPORTS_CRON || INSIGHTS_REPORTS_CRON;
  await scheduleJob(queue, INSIGHTS_REPORTS_QUEUE, cron, { retryLimit: 3, retryDelay: 60, expireInSeconds: 15 * 60 }, async () => {
    await runInsightsReports(database, mailer, log);
  });
}
