import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Box, Button, Card, FileButton, Group, Progress, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, api, errorMessage } from '../../../web/lib/api';
import { setLanguage } from '../../../web/i18n';
import { DOCUMENT_ACCEPT, QueryLoadState, notifyError, notifySuccess } from '../../../web/components';
import type { ShareGateDto, SharedWorkOrderDto } from '../work-order-shares.schema';
import { CodeGate } from './contractor-code-gate';
import { ContractorOrderHead } from './contractor-order-head';
import { SHARED } from './contractor-paths';
import { ContractorCosts } from './contractor-costs';
import { ContractorStep } from './contractor-step';
import { ShareMessages } from './share-messages';
import './labels';

const S = SHARED;
/** The key a confirmed browser holds for a share (one-time code), kept per link on this device. */
const keyName = (token: string) => `cmms-share-key:${token.slice(0, 12)}`;
/** How often an open page reads the share again (revocation, the team's comments). */
export const REFRESH_MS = 60_000;

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
      <QueryLoadState
        query={data}
        pending={data.isLoading}
        label={t('loading')}
        texts={{ forbidden: errorMessage(data.error, t('failed')), failed: errorMessage(data.error, t('failed')), retry: t('retry') }}
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
  const open = dto.state !== 'accepted';
  const [comment, setComment] = useState('');
  const [doneNote, setDoneNote] = useState('');
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
        <ContractorCosts dto={dto} canFill={canFill} pending={action.isPending} run={(call) => action.mutate(call)} query={query} />
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
