/**
 * Whether rich text (the editor's HTML) says nothing: no text and no image, e.g. '', '<p></p>', '<p><br></p>',
 * '<p>&nbsp;</p>'. Such instructions are shown as "none", never as an empty box.
 */
export function isBlankHtml(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<img\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;|&#160;|\u00a0/gi, ' ')
      .trim() === ''
  );
}
