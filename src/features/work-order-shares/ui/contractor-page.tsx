import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Box, Button, Card, FileButton, Group, NumberInput, Progress, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, api, errorMessage } from '../../../web/lib/api';
import { formatDateTime, formatMinutes } from '../../../web/lib/format';
import { setLanguage } from '../../../web/i18n';
import { DOCUMENT_ACCEPT, DateTimeField, LoadState, confirmAction, formatMinorMoney, notifyError, notifySuccess } from '../../../web/components';
import { contractorLaborSchema, contractorPartSchema, type ShareGateDto, type SharedWorkOrderDto } from '../work-order-shares.schema';
import { CodeGate } from './contractor-code-gate';
import { ContractorOrderHead } from './contractor-order-head';
import { SHARED } from './contractor-paths';
import { ContractorStep, CostLine } from './contractor-step';
import { ShareMessages } from './share-messages';
import './labels';

const S = SHARED;
/** The key a confirmed browser holds for a share (one-time code), kept per link on this device. */
const keyName = (token: string) => `cmms-share-key:${token.slice(0, 12)}`;
/** How often an open page reads the share again (revocation, the team's comments). */
export const REFRESH_MS = 60_000;
/** A moment as the date-time box holds it: local 'YYYY-MM-DD HH:mm:00' (decision 066), and back (no zone = local time). */
const toLocalInput = (d: Date) => {
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 16)}:00`;
};
const fromLocalInput = (v: string | null) => (v ? new Date(v.replace(' ', 'T')) : undefined);

/** /shared-work-order?token=: the contractor's page of one shared work order (public, no shell, phone width). */
export default function ContractorPage() {
  const { t, i18n } = useTranslation('contractor');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [key, setKey] = useState<string | null>(() => (token ? localStorage.getItem(keyName(token)) : null));
  const query = { token, ...(key ? { key } : {}) };
  const queryKey = ['shared-work-order', token, key];
  const data = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<SharedWorkOrderDto | ShareGateDto>(`${S}/get-shared-work-order`, { query, signal }),
    enabled: token.length > 0,
    retry: (n, err) => !(err instanceof ApiError && err.status < 500) && n < 2,
    // A revoked or expired link shows so without a reload: read again every minute and when the page comes back.
    refetchInterval: REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });
  const otherLanguage = i18n.language === 'ar' ? 'en' : 'ar';

  let body: ReactNode;
  if (!token || (data.error instanceof ApiError && data.error.status === 404)) {
    body = (
      <Alert color="red" title={t('notFound')} data-testid="contractor-not-found">
        {t('notFoundText')}
      </Alert>
    );
  } else if (data.isLoading || data.isError) {
    body = (
      <LoadState
        pending={data.isLoading}
        failed={data.isError}
        forbidden={data.error instanceof ApiError && data.error.status === 403}
        label={t('loading')}
        texts={{ forbidden: errorMessage(data.error, t('failed')), failed: errorMessage(data.error, t('failed')), retry: t('retry') }}
        onRetry={() => void data.refetch()}
      />
    );
  } else if (data.data && 'codeRequired' in data.data) {
    body = (
      <CodeGate
        token={token}
        emailHint={data.data.emailHint}
        onKey={(k) => {
          localStorage.setItem(keyName(token), k);
          setKey(k);
        }}
      />
    );
  } else if (data.data) {
    body = <SharedOrder dto={data.data} query={query} queryKey={queryKey} />;
  }

  return (
    <Box maw={520} mx="auto" p="md" data-testid="contractor-page">
      <Group justify="flex-end" mb="xs">
        <Button variant="subtle" size="xs" onClick={() => setLanguage(otherLanguage)} data-testid="contractor-language">
          {t('language')}
        </Button>
      </Group>
      {body}
    </Box>
  );
}

function SharedOrder({ dto, query, queryKey }: { dto: SharedWorkOrderDto; query: Record<string, string>; queryKey: unknown[] }) {
  const { t } = useTranslation('contractor');
  const queryClient = useQueryClient();
  const money = (minor: number) => formatMinorMoney(minor, dto.currency);
  const open = dto.state !== 'accepted';
  const [comment, setComment] = useState('');
  const [labor, setLabor] = useState(() => ({
    start: toLocalInput(new Date(Date.now() - 3_600_000)) as string | null,
    end: toLocalInput(new Date()) as string | null,
    rate: '' as number | string,
  }));
  const [part, setPart] = useState({ name: '', quantity: 1 as number | string, unitPrice: '' as number | string });
  const [doneNote, setDoneNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const action = useMutation({
    mutationFn: (call: () => Promise<unknown>) => call(),
    onSuccess: async () => {
      notifySuccess(t('saved'));
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: async (err) => {
      notifyError(errorMessage(err, t('failed')));
      // The link died meanwhile (revoked, expired): the page reads it again and says so.
      if (err instanceof ApiError && err.status === 404) await queryClient.invalidateQueries({ queryKey });
    },
  });
  const post = (path: string, body: unknown) => api.post(`${S}/${path}`, body, { query });
  const canFill = open && dto.permissions.canLog;
  const removeLine = async (kind: 'labor' | 'part', id: number) => {
    if (await confirmAction({ message: t('deleteConfirm') })) action.mutate(() => api.del(`${S}/delete-shared-${kind}/${id}`, { query }));
  };

  /** Checks a new line with the route's schema (its messages under `<kind>.<field>`), then posts it. */
  const addLine = (
    kind: 'labor' | 'part',
    parsed: { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
    after?: () => void,
  ) => {
    if (!parsed.success) return setErrors(Object.fromEntries(parsed.error.issues.map((i) => [`${kind}.${String(i.path[0])}`, i.message])));
    setErrors({});
    action.mutate(() => post(`add-shared-${kind}`, parsed.data).then(after));
  };
  const addLabor = () =>
    addLine(
      'labor',
      contractorLaborSchema.safeParse({
        startTime: fromLocalInput(labor.start),
        endTime: fromLocalInput(labor.end),
        hourlyRate: labor.rate === '' ? undefined : labor.rate,
      }),
    );
  const addPart = () =>
    addLine(
      'part',
      contractorPartSchema.safeParse({ name: part.name, quantity: part.quantity, unitPrice: part.unitPrice === '' ? undefined : part.unitPrice }),
      () => setPart({ name: '', quantity: 1, unitPrice: '' }),
    );
  const total = dto.labors.reduce((s, l) => s + l.costMinor, 0) + dto.parts.reduce((s, p) => s + p.costMinor, 0);

  return (
    <Stack gap="md">
      <ContractorOrderHead dto={dto} />

      {dto.procedure && (
        <Card withBorder data-testid="contractor-procedure">
          <Stack gap="sm">
            <Text fw={600}>
              {t('procedure')}: {dto.procedure.name}
            </Text>
            <Group justify="space-between">
              <Text size="sm">{t('progress', { answered: dto.procedure.progress.answered, total: dto.procedure.progress.total })}</Text>
              {dto.procedure.progress.requiredLeft > 0 && (
                <Badge color="yellow" variant="light">
                  {t('requiredLeft', { count: dto.procedure.progress.requiredLeft })}
                </Badge>
              )}
            </Group>
            <Progress
              value={dto.procedure.progress.total ? (100 * dto.procedure.progress.answered) / dto.procedure.progress.total : 0}
              aria-label={t('procedure')}
            />
            {dto.procedure.steps.map((s) =>
              s.kind === 'heading' ? (
                <Title order={5} key={s.id} mt="xs">
                  {s.label}
                </Title>
              ) : (
                <ContractorStep key={s.id} step={s} editable={canFill} query={query} onSaved={() => queryClient.invalidateQueries({ queryKey })} />
              ),
            )}
          </Stack>
        </Card>
      )}

      <Card withBorder data-testid="contractor-thread">
        <Text fw={600} mb="xs">
          {t('thread')}
        </Text>
        <Stack gap="xs">
          <ShareMessages messages={dto.messages} emptyText={t('noMessages')} testId="contractor-message" byAuthor />
          {open && dto.permissions.canComment && (
            <>
              <Textarea
                aria-label={t('comment')}
                placeholder={t('comment')}
                autosize
                minRows={2}
                value={comment}
                onChange={(e) => setComment(e.currentTarget.value)}
                data-testid="contractor-comment"
              />
              <Group justify="space-between">
                <FileButton
                  accept={DOCUMENT_ACCEPT}
                  onChange={(file) => {
                    if (file) action.mutate(() => api.upload(`${S}/upload-shared-files`, file, { field: 'file', query }));
                  }}
                >
                  {(props) => (
                    <Button variant="default" {...props} data-testid="contractor-upload">
                      {t('upload')}
                    </Button>
                  )}
                </FileButton>
                <Button
                  disabled={!comment.trim()}
                  loading={action.isPending}
                  onClick={() => action.mutate(() => post('add-shared-comment', { body: comment }).then(() => setComment('')))}
                  data-testid="contractor-send"
                >
                  {t('send')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </Card>

      {(dto.permissions.canLog || dto.labors.length > 0 || dto.parts.length > 0) && (
        <Card withBorder>
          <Stack gap="xs">
            <Text fw={600}>{t('time')}</Text>
            {dto.labors.map((l) => (
              <CostLine key={l.id} kind="labor" cost={money(l.costMinor)} onDelete={canFill && (() => void removeLine('labor', l.id))}>
                {formatDateTime(l.startDate)} · {formatMinutes(l.minutes)}
              </CostLine>
            ))}
            {open && dto.permissions.canLog && (
              <>
                <DateTimeField
                  label={t('start')}
                  required
                  value={labor.start}
                  onChange={(v) => setLabor({ ...labor, start: v })}
                  error={errors['labor.startTime']}
                  testId="contractor-start"
                />
                <DateTimeField
                  label={t('end')}
                  required
                  value={labor.end}
                  onChange={(v) => setLabor({ ...labor, end: v })}
                  error={errors['labor.endTime']}
                  testId="contractor-end"
                />
                <Group align="flex-end" grow>
                  <NumberInput
                    label={t('rate', { currency: dto.currency })}
                    min={0}
                    decimalScale={dto.digits}
                    value={labor.rate}
                    onChange={(v) => setLabor({ ...labor, rate: v })}
                    error={errors['labor.hourlyRate']}
                    data-testid="contractor-rate"
                  />
                  <Button onClick={addLabor} loading={action.isPending} data-testid="contractor-add-time">
                    {t('addTime')}
                  </Button>
                </Group>
              </>
            )}
            <Text fw={600} mt="sm">
              {t('parts')}
            </Text>
            {dto.parts.map((p) => (
              <CostLine key={p.id} kind="part" cost={money(p.costMinor)} onDelete={canFill && (() => void removeLine('part', p.id))}>
                {p.name} × {p.quantity}
              </CostLine>
            ))}
            {open && dto.permissions.canLog && (
              <>
                <TextInput
                  label={t('partName')}
                  value={part.name}
                  onChange={(e) => setPart({ ...part, name: e.currentTarget.value })}
                  error={errors['part.name']}
                  data-testid="contractor-part-name"
                />
                <Group align="flex-end" grow>
                  <NumberInput
                    label={t('quantity')}
                    min={1}
                    allowDecimal={false}
                    value={part.quantity}
                    onChange={(v) => setPart({ ...part, quantity: v })}
                    error={errors['part.quantity']}
                  />
                  <NumberInput
                    label={t('unitPrice', { currency: dto.currency })}
                    min={0}
                    decimalScale={dto.digits}
                    value={part.unitPrice}
                    onChange={(v) => setPart({ ...part, unitPrice: v })}
                    error={errors['part.unitPrice']}
                    data-testid="contractor-part-price"
                  />
                </Group>
                <Button variant="default" onClick={addPart} loading={action.isPending} data-testid="contractor-add-part">
                  {t('addPart')}
                </Button>
              </>
            )}
            <Group justify="space-between" mt="xs">
              <Text fw={600}>{t('total')}</Text>
              <Text fw={600} data-testid="contractor-total">
                {money(total)}
              </Text>
            </Group>
          </Stack>
        </Card>
      )}

      {open && dto.permissions.canComplete && dto.state !== 'done' && (
        <Card withBorder>
          <Stack gap="xs">
            <Textarea label={t('doneNote')} autosize minRows={2} value={doneNote} onChange={(e) => setDoneNote(e.currentTarget.value)} />
            <Button
              color="green"
              size="md"
              loading={action.isPending}
              onClick={() => action.mutate(() => post('mark-shared-done', doneNote.trim() ? { comment: doneNote } : {}))}
              data-testid="contractor-done"
            >
              {t('markDone')}
            </Button>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
