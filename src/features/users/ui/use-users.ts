import { useQueryClient } from '@tanstack/react-query';
import { APP_DATA_KEY } from '../../../web/lib/app-data';

export const USERS_KEY = 'users';

/** After a change to people: the users lists and the preloaded app data (workers, loggedInUser). */
export function useRefreshUsers() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: [USERS_KEY] }), queryClient.invalidateQueries({ queryKey: APP_DATA_KEY })]);
}
