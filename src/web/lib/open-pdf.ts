import { fetchFile } from './api';

/** Fetches a PDF with the session's token and opens it in a new tab (the token never goes in a URL). */
export async function openPdf(path: string) {
  // opened before the wait, while the click still counts as the user's (pop-up blockers)
  const win = window.open('', '_blank');
  let pdf: Blob;
  try {
    pdf = await fetchFile(path);
  } catch (err) {
    win?.close();
    throw err;
  }
  const url = URL.createObjectURL(pdf);
  if (win) win.location.href = url;
  else window.location.href = url;
}
