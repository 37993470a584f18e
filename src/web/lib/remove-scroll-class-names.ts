/**
 * `RemoveScroll.classNames` of react-remove-scroll for Mantine's AppShell header, footer and aside (vite.config.ts
 * points their import here): they read only these two class names, and the whole library (~4 KB gzipped) came with
 * the shell for them. The modals and drawers still use the real RemoveScroll, which compensates the scrollbar on
 * elements with these same classes (react-remove-scroll-bar's constants).
 */
export const RemoveScroll = {
  classNames: {
    zeroRight: 'right-scroll-bar-position',
    fullWidth: 'width-before-scroll-bar',
  },
};
