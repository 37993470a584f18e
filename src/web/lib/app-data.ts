import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserDto } from '../../features/users/users.schema';
import type { CompanyDto } from '../../features/organization/organization.schema';
import { api } from './api';
import { setDisplayTimeZone } from './format';

/** GET /api/user/get-app-data (spec section 7): the signed-in user, the company and the preloaded stores. */
export interface AppData {
  loggedInUser: UserDto;
  company: CompanyDto;
  workers: UserDto[];
  assetCategories: unknown[];
  assets: unknown[];
  maintenanceOrders: unknown[];
  services: { services: unknown[] };
  workOrders: unknown[];
  workStations: unknown[];
  parts: unknown[];
  uomCategories: unknown[];
  productCategories: unknown[];
  taxes: unknown[];
  timeTrackReasons: unknown[];
  [key: string]: unknown;
}

export const APP_DATA_KEY = ['app-data'] as const;

/** The application data's query: read by useAppData, fetched ahead by AuthProvider once a signed-in page's session is known. */
export const appDataQuery = queryOptions({
  queryKey: APP_DATA_KEY,
  queryFn: async ({ signal }) => {
    const data = await api.get<AppData>('/user/get-app-data', { signal });
    // Moments are shown on the organisation's clock from here on (decision 064).
    setDisplayTimeZone(data.company?.timeZone);
    return data;
  },
  staleTime: 5 * 60_000,
});

/** The preloaded application data (loaded once on entry to the signed-in area; refetch with `refresh`). */
export function useAppData() {
  const queryClient = useQueryClient();
  const query = useQuery(appDataQuery);
  return { ...query, refresh: () => queryClient.invalidateQueries({ queryKey: APP_DATA_KEY }) };
}

/** The signed-in user (undefined while loading). */
export function useCurrentUser(): UserDto | undefined {
  return useAppData().data?.loggedInUser;
}

/** True for admin and manager: the roles that manage people, company, master data and deletes. */
export function useIsManager(): boolean {
  const role = useCurrentUser()?.role;
  return role === 'admin' || role === 'manager';
}
