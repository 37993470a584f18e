import { createHash } from 'node:crypto';

/**
 * The CSP sources of the inline scripts a page of ours carries ('sha256-…'): the Content-Security-Policy refuses
 * every inline script but these. index.html has one, the theme and language script the build puts in its <head>
 * so it runs before the first paint (vite.config.ts, headScript; decision 050).
 */
export function inlineScriptSources(html: string): string[] {
  const sources: string[] = [];
  for (const m of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(m[1] ?? '') || !m[2]) continue;
    sources.push(`'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return sources;
}
