import { api, getAccessToken, loadTimeRefresh } from '../../../web/lib/api';
import type { MyWorkListDto } from '../my-work.schema';

export const MY_WORK_PAGE_SIZE = 50;

export const readMyWorkPage = (page: number) => api.get<MyWorkListDto>('/my-work/list-my-work', { query: { page, pageSize: MY_WORK_PAGE_SIZE } });

let early: Promise<{ token: string; answer: MyWorkListDto } | null> | null = null;

/**
 * My work opened cold (the installed app starts there): its first page is asked as soon as the load-time refresh
 * has a token, beside the app's modules, not after the shell, the page and the device store have started (issue
 * 46: it was asked ~0.8 s into the load, the last link of the chain before the cards could show). Called by the
 * entry (main.tsx), which already holds the API client; the sync takes the answer once (`takeEarlyFirstPage`).
 */
export function askFirstPageEarly() {
  early ??= loadTimeRefresh()
    .then(async (token) => (token ? { token, answer: await readMyWorkPage(1) } : null))
    .catch(() => null);
}

/**
 * The early first page, once, when it was asked with the session still in use; null otherwise (then the sync
 * reads it as usual). The sync takes it only when it sent nothing from the outbox first: a change sent after the
 * early read would be missing from it.
 */
export async function takeEarlyFirstPage(): Promise<MyWorkListDto | null> {
  const pending = early;
  early = null;
  const got = pending && (await pending);
  return got && got.token === getAccessToken() ? got.answer : null;
}
