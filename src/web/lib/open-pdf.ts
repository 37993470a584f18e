import { apiUrl, getAccessToken, refreshSession } from './api';

/** Fetches a PDF with the session's token and opens it in a new tab (the token never goes in a URL). */
export async function openPdf(path: string) {
  const win = window.open('', '_blank');
  const get = (token: string | null) => fetch(apiUrl(path), { headers: token ? { authorization: `Bearer ${token}` } : {}, credentials: 'include' });
  let res = await get(getAccessToken());
  if (res.status === 401) res = await get(await refreshSession());
  if (!res.ok) {
    win?.close();
    throw new Error(`PDF ${res.status}`);
  }
  const url = URL.createObjectURL(await res.blob());
  if (win) win.location.href = url;
  else window.location.href = url;
}
