import { useState } from 'react';
import { Button, Card, PinInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../web/lib/api';
import { notifyError } from '../../../web/components';
import { SHARED } from './contractor-paths';

/** The one-time code asked before a share that needs it: send the code to the contractor's e-mail, then confirm it. */
export function CodeGate({ token, emailHint, onKey }: { token: string; emailHint: string; onKey(key: string): void }) {
  const { t } = useTranslation('contractor');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const send = useMutation({
    mutationFn: () => api.post(`${SHARED}/send-share-code`, {}, { query: { token } }),
    onSuccess: () => setSent(true),
    onError: (err) => notifyError(errorMessage(err, t('failed'))),
  });
  const confirm = useMutation({
    mutationFn: () => api.post<{ key: string }>(`${SHARED}/confirm-share-code`, { code }, { query: { token } }),
    onSuccess: (res) => onKey(res.key),
    onError: (err) => notifyError(errorMessage(err, t('failed'))),
  });
  return (
    <Card withBorder>
      <Stack>
        <Title order={3}>{t('codeTitle')}</Title>
        <Text size="sm">{t('codeText', { email: emailHint })}</Text>
        <Button onClick={() => send.mutate()} loading={send.isPending} variant={sent ? 'default' : 'filled'}>
          {t('sendCode')}
        </Button>
        {sent && (
          <>
            <PinInput length={6} type="number" oneTimeCode value={code} onChange={setCode} aria-label={t('code')} />
            <Button onClick={() => confirm.mutate()} disabled={code.length !== 6} loading={confirm.isPending}>
              {t('confirm')}
            </Button>
          </>
        )}
      </Stack>
    </Card>
  );
}
