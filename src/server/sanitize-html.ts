import sanitize from 'sanitize-html';

/**
 * What the rich-text fields (a work order's instructions, a service's operations) may keep of the tiptap
 * editor's output: formatting only, no attributes except a link's href with a safe scheme. sanitize-html
 * parses the markup with htmlparser2, so entity tricks ("jav&#x61;script:") and broken tags are handled
 * by a real parser, not by our own patterns.
 */
const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'code',
    'pre',
    'a',
    'span',
    'hr',
    'mark',
    'sub',
    'sup',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  // Dropped with their content, not just unwrapped: their text is code or chrome, never the user's words.
  nonTextTags: ['script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math', 'textarea', 'select', 'title', 'head'],
  disallowedTagsMode: 'discard',
  // Links open outside the app and pass nothing of it on.
  transformTags: { a: sanitize.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }) },
};

/** Returns HTML safe to render: formatting only. */
export function sanitizeHtml(input: string): string {
  return sanitize(input, OPTIONS);
}
