import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import { onCommittedWrite } from '../../server/db/client';
import type { AccessClaims, Role } from './tokens';

/**
 * The rights of live sessions, kept in memory while this process hears every change to them (decision 021,
 * addendum). On PostgreSQL a trigger on `users` and `sessions` sends `NOTIFY cmms_rights, '<org id>'` when a
 * role, a token version, a status or a session's revocation or expiry changes, or a row goes; this process
 * LISTENs and forgets that organisation's kept rights. A write committed by this process forgets its
 * organisation's kept rights at once, before its answer leaves, so the next request it serves reads them
 * again. When the feed is down (not yet connected, or its connection lost), nothing is kept: every request
 * reads the database, as without the cache.
 */
export class RightsCache {
  #live = false;
  /** Bumped by forgetAll: a read that started before it keeps nothing. */
  #epoch = 0;
  #orgs = new Map<number, { generation: number; sessions: Map<number, Kept> }>();
  #size = 0;

  get live() {
    return this.#live;
  }

  /** Turns keeping on or off; either way what was kept is forgotten (changes may have been missed). */
  setLive(live: boolean) {
    this.forgetAll();
    this.#live = live;
  }

  /** The caller's role if kept (undefined: read the database). */
  lookup(claims: AccessClaims, now = Date.now()): Role | undefined {
    if (!this.#live) return undefined;
    const kept = this.#orgs.get(claims.orgId)?.sessions.get(claims.sessionId);
    if (!kept || kept.userId !== claims.userId || kept.tokenVersion !== claims.tokenVersion) return undefined;
    if (kept.expiresAt <= now || kept.keptUntil <= now) return undefined;
    return kept.role;
  }

  /** Taken before reading the database: `keep` refuses the answer if anything was forgotten meanwhile. */
  mark(orgId: number): Mark {
    return { epoch: this.#epoch, generation: this.#orgs.get(orgId)?.generation ?? 0 };
  }

  keep(claims: AccessClaims, mark: Mark, row: { role: Role; tokenVersion: number; expiresAt: Date }, now = Date.now()) {
    if (!this.#live || mark.epoch !== this.#epoch) return;
    let org = this.#orgs.get(claims.orgId);
    if ((org?.generation ?? 0) !== mark.generation) return;
    if (this.#size >= MAX_KEPT) this.forgetAll();
    if (!org) this.#orgs.set(claims.orgId, (org = { generation: 0, sessions: new Map() }));
    if (!org.sessions.has(claims.sessionId)) this.#size++;
    org.sessions.set(claims.sessionId, {
      userId: claims.userId,
      tokenVersion: row.tokenVersion,
      role: row.role,
      expiresAt: row.expiresAt.getTime(),
      keptUntil: now + MAX_AGE_MS,
    });
  }

  forgetOrg(orgId: number) {
    const org = this.#orgs.get(orgId);
    if (!org) {
      // A read of this organisation that started before now must not keep its answer.
      if (this.#live) this.#orgs.set(orgId, { generation: 1, sessions: new Map() });
      return;
    }
    org.generation++;
    this.#size -= org.sessions.size;
    org.sessions.clear();
  }

  forgetAll() {
    this.#epoch++;
    this.#orgs.clear();
    this.#size = 0;
  }
}

interface Kept {
  userId: number;
  tokenVersion: number;
  role: Role;
  expiresAt: number;
  keptUntil: number;
}
interface Mark {
  epoch: number;
  generation: number;
}

/** A kept right is read again after this long even without a change (a bound, not the mechanism). */
const MAX_AGE_MS = 60_000;
const MAX_KEPT = 100_000;
export const RIGHTS_CHANNEL = 'cmms_rights';

const caches = new WeakMap<Db, RightsCache>();

/** The cache of a database (one per database per process: every app on it shares the feed). */
export function rightsCacheOf(db: Db): RightsCache {
  let cache = caches.get(db);
  if (!cache) {
    const created = (cache = new RightsCache());
    caches.set(db, created);
    // A write this process committed is forgotten before its answer leaves (the notification may come later).
    onCommittedWrite(db, (orgId) => (orgId === '' ? created.forgetAll() : created.forgetOrg(orgId)));
  }
  return cache;
}

/** How often the feed checks that it still hears (decision 062): a probe it has not heard by the next one turns keeping off. */
export const HEARTBEAT_MS = 5_000;
const PROBE = 'probe:';

/**
 * Listens for changes of rights on PostgreSQL and keeps the cache live while it hears them; reconnects after a
 * lost connection (the cache stays off meanwhile). One feed per database however many apps use it; returns the
 * function that stops this caller's use of it. `listenUrl` should reach PostgreSQL itself (DATABASE_DIRECT_URL):
 * through a transaction pooler a LISTEN succeeds and then hears nothing. So the feed is trusted only while it
 * hears itself: every `heartbeatMs` it sends a probe through the app's own pool (`db`, as every change is made)
 * and the cache is live only while the last probe came back before the next one left (decision 062).
 */
export function hearRightsChanges(db: Db, listenUrl: string, log: Log, options: { heartbeatMs?: number } = {}): () => Promise<void> {
  let feed = feeds.get(db);
  if (!feed) feeds.set(db, (feed = { users: 0, stop: startFeed(db, listenUrl, log, options.heartbeatMs ?? HEARTBEAT_MS) }));
  feed.users++;
  let stopped = false;
  return async () => {
    if (stopped || !feed) return;
    stopped = true;
    if (--feed.users === 0) {
      feeds.delete(db);
      await feed.stop();
    }
  };
}
type Log = { warn(obj: object, msg: string): void };
const feeds = new WeakMap<Db, { users: number; stop: () => Promise<void> }>();

function startFeed(db: Db, databaseUrl: string, log: Log, heartbeatMs: number): () => Promise<void> {
  const cache = rightsCacheOf(db);
  let stopped = false;
  let client: import('pg').Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  /** The probe sent and not heard yet. */
  let pending: string | undefined;
  let deafSaid = false;
  const probe = () => {
    if (pending) {
      if (cache.live) cache.setLive(false);
      if (!deafSaid)
        log.warn(
          {},
          'The feed of rights changes does not hear its own probe (LISTEN through a transaction pooler? set DATABASE_DIRECT_URL): every request reads the database',
        );
      deafSaid = true;
    }
    if (!client || stopped) return;
    const sent = (pending = `${PROBE}${randomUUID()}`);
    db.execute(sql`select pg_notify(${RIGHTS_CHANNEL}, ${sent})`).catch(() => {});
  };
  const heartbeat = setInterval(probe, heartbeatMs);
  heartbeat.unref();
  const connect = async () => {
    const { default: pg } = await import('pg');
    const next = new pg.Client({ connectionString: databaseUrl, application_name: 'cmms-rights-feed' });
    client = next;
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = undefined;
      pending = undefined;
      cache.setLive(false);
      void next.end().catch(() => {});
      if (stopped) return;
      log.warn({ err }, 'The feed of rights changes was lost: every request reads the database until it is back');
      retry = setTimeout(() => void connect(), 1000);
      retry.unref();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', (message) => {
      if (message.payload?.startsWith(PROBE)) {
        // Ours: the feed hears. Another instance's probe changes nothing.
        if (message.payload === pending && client === next) {
          pending = undefined;
          if (!cache.live) cache.setLive(true);
          deafSaid = false;
        }
        return;
      }
      const orgId = Number(message.payload);
      if (Number.isSafeInteger(orgId) && orgId > 0) cache.forgetOrg(orgId);
      else cache.forgetAll();
    });
    try {
      await next.connect();
      await next.query(`listen ${RIGHTS_CHANNEL}`);
      // Live once it hears its first probe.
      if (client === next && !stopped) probe();
    } catch (err) {
      lost(err as Error);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(heartbeat);
    const last = client;
    client = undefined;
    cache.setLive(false);
    await last?.end().catch(() => {});
  };
}
