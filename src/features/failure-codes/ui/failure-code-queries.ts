import { useQuery } from '@tanstack/react-query';
import { api } from '../../../web/lib/api';
import type { FailureCodeDto, FailureCodeSettings } from '../failure-codes.schema';

/** The organisation's failure codes (tens to hundreds: one call), shared by the settings page and the close dialog. */
export const failureCodesKey = ['failure-codes'] as const;
export function useFailureCodes(enabled = true) {
  return useQuery({
    queryKey: [...failureCodesKey, 'all'],
    queryFn: ({ signal }) => api.get<{ failureCodes: FailureCodeDto[] }>('/failure-codes/get-failure-codes', { signal }),
    enabled,
  });
}
export function useFailureCodeSettings(enabled = true) {
  return useQuery({
    queryKey: [...failureCodesKey, 'settings'],
    queryFn: ({ signal }) => api.get<{ settings: FailureCodeSettings }>('/failure-codes/get-failure-code-settings', { signal }),
    enabled,
  });
}
