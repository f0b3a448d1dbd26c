import { useSyncExternalStore } from 'react';

/**
 * Whether a media query matches, kept current as it changes. The server (and the first render
 * in the browser, so hydration matches) assumes it does not: layouts that must be right before
 * hydration use CSS for what is seen, and this only for what is mounted or announced.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below Tailwind's `sm` breakpoint (40rem, 640 px): the phone layout. */
export const NARROW = '(width < 40rem)';
