import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../web/lib/api';
import { notifyError, notifySuccess } from '../../../web/components';
import type { TwoFactorEnrolment, TwoFactorStatus } from '../../two-factor/two-factor.schema';

const STATUS_KEY = ['two-factor', 'status'];

/** The Security tab's two-factor state: the status query, the enrolment, the code and password fields and the three calls. */
export function useTwoFactor() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: () => api.get<TwoFactorStatus>('/two-factor/get-status') });
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: STATUS_KEY });

  /** Runs one call with the spinner on; a refusal goes to `fail` (a toast, or the code field's error). */
  const call = async (action: () => Promise<void>, fail: (message: string) => void) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      fail(errorMessage(err, t('errors.generic')));
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    call(async () => {
      setEnrolment(await api.post<TwoFactorEnrolment>('/two-factor/start-enrolment'));
      setCode('');
      setCodeError(null);
    }, notifyError);
  const confirm = () =>
    call(async () => {
      const res = await api.post<{ recoveryCodes: string[] }>('/two-factor/confirm-enrolment', { code });
      setCodes(res.recoveryCodes);
      setEnrolment(null);
      await refresh();
    }, setCodeError);
  const disable = () =>
    call(async () => {
      const res = await api.post<{ message: string }>('/two-factor/disable', { password, code });
      notifySuccess(res.message);
      setDisabling(false);
      setPassword('');
      setCode('');
      await refresh();
    }, setCodeError);

  return {
    status: status.data,
    enrolment,
    setEnrolment,
    codes,
    setCodes,
    code,
    setCode,
    codeError,
    setCodeError,
    disabling,
    setDisabling,
    password,
    setPassword,
    busy,
    refresh,
    start,
    confirm,
    disable,
  };
}

export type TwoFactorState = ReturnType<typeof useTwoFactor>;
