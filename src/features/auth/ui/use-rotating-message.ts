import { useEffect, useState } from 'react';

/** The four messages of the auth screens' marketing panel. */
export const MESSAGES = ['paperwork', 'history', 'decisions', 'crm'] as const;
export const ROTATE_MS = 5000;
export const FADE_MS = 500;

/** One message every 5 s with a 500 ms fade: the current index and whether it is shown. */
export function useRotatingMessage() {
  const [index, setIndex] = useState(0);
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    let fade: ReturnType<typeof setTimeout>;
    const timer = setInterval(() => {
      setVisible(false);
      fade = setTimeout(() => {
        setIndex((i) => (i + 1) % MESSAGES.length);
        setVisible(true);
      }, FADE_MS);
    }, ROTATE_MS);
    return () => {
      clearInterval(timer);
      clearTimeout(fade);
    };
  }, []);
  return { index, key: MESSAGES[index], visible };
}
