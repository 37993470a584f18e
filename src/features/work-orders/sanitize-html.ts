/**
 * Whitelist sanitiser for the rich-text instructions (the tiptap editor's output). Only formatting tags
 * survive, with no attributes except a safe href on links; script/style/iframe and their content,
 * comments, event handlers and javascript: URLs are dropped. Text is re-escaped, so nothing outside
 * the whitelist can become markup.
 */
const ALLOWED = new Set([
  'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'blockquote', 'code', 'pre', 'a', 'span', 'hr', 'mark', 'sub', 'sup',
]);
const VOID = new Set(['br', 'hr']);
const DROP_WITH_CONTENT = ['script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math', 'textarea', 'select', 'title', 'head'];

const escapeText = (s: string) => s.replace(/&(?!(?:[a-z]+|#\d+|#x[0-9a-f]+);)/gi, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function safeHref(attrs: string): string | null {
  const m = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attrs);
  if (!m) return null;
  const href = (m[1] ?? m[2] ?? m[3] ?? '').trim();
  // Decode entities and strip control characters before checking the scheme ("jav&#x61;script:", "java\tscript:").
  const probe = href
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d) => String.fromCharCode(Number(d)))
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0020]/g, '')
    .toLowerCase();
  if (/^(https?:|mailto:|tel:|\/|#)/.test(probe) || !/^[a-z][a-z0-9+.-]*:/.test(probe)) return href;
  return null;
}

/** Returns HTML safe to render: formatting only. */
export function sanitizeHtml(input: string): string {
  let html = input.replace(/<!--[\s\S]*?(-->|$)/g, '');
  for (const tag of DROP_WITH_CONTENT) html = html.replace(new RegExp(`<${tag}\\b[\\s\\S]*?(<\\/${tag}\\s*>|$)`, 'gi'), '');
  let out = '';
  let last = 0;
  const tagPattern = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (let m = tagPattern.exec(html); m; m = tagPattern.exec(html)) {
    out += escapeText(html.slice(last, m.index));
    last = tagPattern.lastIndex;
    const closing = m[1] === '/';
    const name = m[2].toLowerCase();
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      if (!VOID.has(name)) out += `</${name}>`;
      continue;
    }
    if (name === 'a') {
      const href = safeHref(m[3]);
      out += href === null ? '<a>' : `<a href="${escapeAttr(href)}" target="_blank" rel="noopener noreferrer nofollow">`;
    } else {
      out += `<${name}>`;
    }
  }
  out += escapeText(html.slice(last));
  return out;
}
