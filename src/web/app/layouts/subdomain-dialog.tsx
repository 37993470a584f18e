import { useState } from 'react';
import { Modal, TextInput } from '@mantine/core';
import { DialogActions } from '../../components/dialog-actions';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../lib/api';
import { notifyError } from '../../components/notify';
import { searchSubdomainSchema } from '../../../features/auth/auth.schema';
import { organizationUrl } from '../../lib/org-host';

/** Landing page Login: "Enter Subdomain", then that organisation's /login (document 2, section 2). */
export function SubdomainDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = searchSubdomainSchema.safeParse({ subdomain: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? t('errors.generic'));
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await api.post<{ subdomain: string; loginUrl?: string }>('/search-subdomain', parsed.data);
      window.location.assign(res.loginUrl ?? organizationUrl(res.subdomain, '/login'));
    } catch (err) {
      notifyError(errorMessage(err, t('errors.generic')));
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('landing.enterSubdomain')} centered>
      <form onSubmit={submit} noValidate>
        <TextInput
          label={t('landing.subdomain')}
          placeholder="acme"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={error}
          data-autofocus
          data-testid="subdomain-input"
        />
        <DialogActions submitLabel={t('actions.submit')} loading={busy} testId="subdomain-submit" mt="md" />
      </form>
    </Modal>
  );
}
