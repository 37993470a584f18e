import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Badge, Box, Button, Card, Center, Group, Loader, Progress, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconClipboardList, IconClockPlay, IconLayoutList, IconLogout } from '@tabler/icons-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../web/app/auth-context';
import { markSessionUser, mayHaveSession, sessionUserHint, tokenClaims } from '../../../web/lib/session';
import { formatDateTime } from '../../../web/lib/format';
import { progressOf } from '../../procedures/procedure-progress';
import { claimFor, getMeta, myWorkDb, type CachedWorkOrder } from './my-work-db';
import { reportStorageFailure, syncNow, useLive, useSyncFlag, watchNetwork } from './my-work-sync';
import { NoticeList } from './notice-list';
import { PushSwitch } from './push-switch';
import { SyncIndicator, TOUCH } from './sync-indicator';
import { HoldBadge } from './hold-badge';
import './labels';
import './labels-tech';

/**
 * The full-screen work order (its inputs, the reason picker's dropdown, the scanner) is not needed to show the
 * list: it loads when a card is pressed (or a link opens one), so My work's first load stays light. The service
 * worker precaches it with the rest of the build, so it opens offline too.
 */
const loadScreen = () => import('./work-order-screen');
const WorkOrderScreen = lazy(() => loadScreen().then((m) => ({ default: m.WorkOrderScreen })));
const preloadScreen = () => void loadScreen().catch(() => undefined);
/** The stock count (decision 084): online only, loaded when opened. */
const CountScreen = lazy(() => import('./count-screen').then((m) => ({ default: m.CountScreen })));

const PRIORITY_COLOR: Record<string, string> = { lowest: 'gray', low: 'blue', medium: 'yellow', high: 'orange', critical: 'red' };

type Section = 'overdue' | 'today' | 'upcoming' | 'closed';

/**
 * Overdue (due before now), today (due later today), upcoming (later, or no due date); a completed or cancelled
 * order is closed, never overdue (issue 46).
 */
export function sectionOf(dueDate: string | null, now: Date, status?: string): Section {
  if (status === 'completed' || status === 'cancelled') return 'closed';
  if (!dueDate) return 'upcoming';
  const due = new Date(dueDate);
  if (due.getTime() < now.getTime()) return 'overdue';
  const endOfToday = new Date(now);
  endOfToday.setHours(23, 59, 59, 999);
  return due.getTime() <= endOfToday.getTime() ? 'today' : 'upcoming';
}

/**
 * One card, rendered again only when its order, timer or language changes: the sync state and a refresh that
 * changed nothing do not render every card again (on a phone that was the last long task before interactive).
 */
const WorkOrderCard = memo(function WorkOrderCard({
  order,
  timerRunning,
  onOpen,
}: {
  order: CachedWorkOrder;
  timerRunning: boolean;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation('myWork');
  const wo = order.workOrder;
  // From the steps as the device holds them: answers given offline count at once.
  const progress = order.procedure ? progressOf(order.procedure.steps) : null;
  return (
    <UnstyledButton
      onClick={() => onOpen(wo.id)}
      onPointerDown={preloadScreen}
      onFocus={preloadScreen}
      data-testid={`my-work-card-${wo.id}`}
      style={{ display: 'block', width: '100%', minHeight: TOUCH }}
    >
      <Card withBorder padding="md" radius="md">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} lineClamp={2} dir="auto">
            {wo.title}
          </Text>
          <Badge color={PRIORITY_COLOR[wo.priority] ?? 'gray'} variant="filled" style={{ flexShrink: 0 }}>
            {t(`priority.${wo.priority}`)}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" mt={4}>
          <bdi>{wo.workOrderId}</bdi> · <bdi>{wo.asset?.name ?? t('noAsset')}</bdi>
        </Text>
        <Group justify="space-between" mt="xs" gap="xs">
          <Text size="sm">{wo.dueDate ? t('due', { when: formatDateTime(wo.dueDate) }) : t('noDue')}</Text>
          <Group gap={4}>
            <HoldBadge order={wo} testId={`my-work-card-hold-${wo.id}`} />
            <Badge variant="outline">{t(`status.${wo.status}`)}</Badge>
          </Group>
        </Group>
        {progress && progress.total > 0 && (
          <Box mt="xs">
            <Text size="xs" c="dimmed">
              {t('steps', { answered: progress.answered, total: progress.total })}
            </Text>
            <Progress
              value={(progress.answered / progress.total) * 100}
              size="sm"
              mt={2}
              aria-label={t('steps', { answered: progress.answered, total: progress.total })}
            />
          </Box>
        )}
        {timerRunning && (
          <Group gap={4} mt="xs" c="teal">
            <IconClockPlay size={16} />
            <Text size="sm">{t('timerRunning')}</Text>
          </Group>
        )}
      </Card>
    </UnstyledButton>
  );
});

/** How many cards a phone's first screen shows: those render at once, the rest just after (`OrderSections`). */
const FIRST_CARDS = 4;

/**
 * The sections and their cards. When the cards first appear, the first screenful renders at once and the rest
 * in a background render that React slices and that input interrupts (issue 46): the technician can touch the
 * first card before thirteen cards have been built, where one render of them all was the longest task of the
 * cold load. Later answers render every card as before (unchanged cards are memoised).
 */
function OrderSections({
  sections,
  timers,
  onOpen,
}: {
  sections: Record<Section, CachedWorkOrder[]>;
  timers: { workOrderId: number }[] | undefined;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation('myWork');
  const limit = useDeferredValue(Number.POSITIVE_INFINITY, FIRST_CARDS);
  let shown = 0;
  return (['overdue', 'today', 'upcoming', 'closed'] as const).map(
    (s) =>
      sections[s].length > 0 && (
        <Stack key={s} gap="sm" data-testid={`my-work-${s}`}>
          <Title order={2} size="h4" c={s === 'overdue' ? 'red' : undefined}>
            {t(`section.${s}`)} ({sections[s].length})
          </Title>
          {sections[s].map(
            (o) => shown++ < limit && <WorkOrderCard key={o.id} order={o} timerRunning={!!timers?.some((x) => x.workOrderId === o.id)} onOpen={onOpen} />,
          )}
        </Stack>
      ),
  );
}

/** A full screen loaded when opened (the count, a work order): a spinner until its code is there. */
function ScreenLoading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center h="60vh">
          <Loader />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}

function MyWorkList({ userId }: { userId: number }) {
  const { t } = useTranslation('myWork');
  const [params, setParams] = useSearchParams();
  const orders = useLive(() => myWorkDb().workOrders.toArray(), []);
  const timers = useLive(() => myWorkDb().timers.toArray(), []);
  // Whether the copy was ever loaded (a boolean: each refresh's new time does not render the list again).
  const loadedOnce = useLive(async () => (await getMeta<number>('refreshedAt')) !== undefined, []);
  const online = useSyncFlag('online');
  const failed = useSyncFlag('failed');
  const open = Number(params.get('open')) || null;
  const openCard = useCallback((id: number) => setParams({ open: String(id) }), [setParams]);
  const counting = params.get('count') === '1';

  const sections = useMemo(() => {
    const now = new Date();
    const mine = (orders ?? []).filter((o) => o.workOrder.assignees.some((a) => a.id === userId));
    const by: Record<Section, CachedWorkOrder[]> = { overdue: [], today: [], upcoming: [], closed: [] };
    for (const o of mine) by[sectionOf(o.workOrder.dueDate, now, o.workOrder.status)].push(o);
    for (const list of Object.values(by)) list.sort((a, b) => (a.workOrder.dueDate ?? '9999').localeCompare(b.workOrder.dueDate ?? '9999'));
    return by;
  }, [orders, userId]);

  if (counting)
    return (
      <ScreenLoading>
        <CountScreen onBack={() => setParams({})} />
      </ScreenLoading>
    );
  if (open) {
    const order = orders?.find((o) => o.id === open);
    if (orders && !order) {
      return (
        <Stack p="md">
          <NoticeList workOrderId={open} />
          <Text data-testid="my-work-not-found">{t('notFound')}</Text>
          <Button size="lg" onClick={() => setParams({})}>
            {t('back')}
          </Button>
        </Stack>
      );
    }
    if (order)
      return (
        <ScreenLoading>
          <WorkOrderScreen order={order} onBack={() => setParams({})} />
        </ScreenLoading>
      );
  }

  const count = sections.overdue.length + sections.today.length + sections.upcoming.length + sections.closed.length;
  const neverLoaded = loadedOnce === false && count === 0;
  return (
    <Stack gap="md" p="md" maw={640} mx="auto" data-testid="my-work">
      <NoticeList />
      <PushSwitch />
      {orders === undefined || (neverLoaded && online && !failed) ? (
        <Center h="40vh">
          <Loader />
        </Center>
      ) : neverLoaded && failed ? (
        <Alert color="red" title={t('loadFailed')}>
          <Button mt="sm" size="md" onClick={() => void syncNow()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : count === 0 ? (
        <Stack align="center" gap={4} py="xl" data-testid="my-work-empty">
          <Text fw={600}>{t('empty')}</Text>
          <Text c="dimmed" size="sm" ta="center">
            {t('emptyHint')}
          </Text>
        </Stack>
      ) : (
        <OrderSections sections={sections} timers={timers} onOpen={openCard} />
      )}
    </Stack>
  );
}

/**
 * The device store cannot be used (no IndexedDB: a private window, storage turned off or full). Said plainly,
 * with the way that still works: the full app, online only.
 */
function StorageProblem({ signedIn }: { signedIn: boolean }) {
  const { t } = useTranslation('myWork');
  return (
    <Stack p="md" maw={640} mx="auto">
      <Alert color="red" title={t('storage.title')} data-testid="my-work-storage-failed">
        <Text size="sm">{t('storage.body')}</Text>
        <Button component={Link} to={signedIn ? '/dashboard/work-orders' : '/login'} mt="sm" size="md" data-testid="my-work-online-only">
          {signedIn ? t('storage.openFullApp') : t('storage.signIn')}
        </Button>
      </Alert>
    </Stack>
  );
}

/**
 * /dashboard/my-work: the technician's home at phone width (issue 27, decision 041). Outside the manager's
 * shell: its own header, the device copy of my open work orders (IndexedDB), the outbox of changes. Signed in,
 * it keeps the copy fresh and sends the outbox; opened offline without a session (a new tab, the installed
 * app), it shows the device copy of the user it belongs to and sends once the network and the session are back.
 */
export default function MyWorkPage() {
  const { t } = useTranslation('myWork');
  const { t: tt } = useTranslation('techApp');
  const { status, signOut } = useAuth();
  const owner = useLive(async () => (await getMeta<number>('owner')) ?? null, []);
  const [claimedBy, setClaimedBy] = useState<number | null>(null);
  const storageFailed = useSyncFlag('storageFailed');

  useEffect(() => watchNetwork(), []);
  useEffect(() => {
    if (status !== 'signedIn') return;
    const claims = tokenClaims();
    if (!claims) return;
    void claimFor(claims.userId).then(() => {
      markSessionUser(claims.userId);
      setClaimedBy(claims.userId);
      void syncNow();
    }, reportStorageFailure);
  }, [status]);

  if (storageFailed && status !== 'loading') return <StorageProblem signedIn={status === 'signedIn'} />;
  // While the session is being refreshed, the device copy shows at once when My work last confirmed it for this
  // session's user (the installed app opens on its cards, not on a spinner for a round trip); it stays on screen
  // when the session and the claim confirm that user (no spinner between, no second render).
  const ownCopy = owner != null && owner === sessionUserHint();
  if (owner === undefined || (status === 'loading' && !ownCopy)) {
    return (
      <Center h="100dvh">
        <Loader />
      </Center>
    );
  }
  const confirmed = claimedBy ?? (owner === tokenClaims()?.userId ? owner : null);
  const userId = status === 'signedIn' ? confirmed : status === 'loading' || mayHaveSession() ? owner : null;
  if (status === 'signedOut' && userId === null) return <Navigate to="/login" replace />;

  return (
    <Box mih="100dvh">
      <Group
        component="header"
        justify="space-between"
        px="md"
        py="xs"
        wrap="nowrap"
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 10,
          background: 'var(--mantine-color-body)',
          borderBottom: '1px solid var(--mantine-color-default-border)',
        }}
      >
        <Title order={1} size="h3">
          {t('title')}
        </Title>
        <Group gap="xs" wrap="nowrap">
          <SyncIndicator />
          {/* Icons with their names (issue 46): at 390 px the words were cut ("Full ap", "Sign ou"). */}
          {status === 'signedIn' && (
            <>
              {[
                { to: '/dashboard/my-work?count=1', label: tt('count.open'), testId: 'my-work-count', Icon: IconClipboardList },
                { to: '/dashboard/work-orders', label: t('allWorkOrders'), testId: 'my-work-full-app', Icon: IconLayoutList },
              ].map(({ to, label, testId, Icon }) => (
                <ActionIcon key={testId} component={Link} to={to} variant="subtle" size={44} aria-label={label} title={label} data-testid={testId}>
                  <Icon size={24} />
                </ActionIcon>
              ))}
              <ActionIcon
                variant="subtle"
                size={44}
                onClick={() => void signOut()}
                aria-label={t('signOut')}
                title={t('signOut')}
                data-testid="my-work-sign-out"
              >
                <IconLogout size={24} />
              </ActionIcon>
            </>
          )}
        </Group>
      </Group>
      {userId === null ? (
        <Center h="40vh">
          <Loader />
        </Center>
      ) : (
        <MyWorkList userId={userId} />
      )}
    </Box>
  );
}
