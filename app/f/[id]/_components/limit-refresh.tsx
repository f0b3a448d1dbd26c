'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/** After a download starts or a play begins: re-read the page this long after, each time. */
const AFTER_MS = [800, 2500, 8000];

/**
 * Keeps "N downloads left" current on a share with a limit, without a reload: a click on one of
 * the share's download links (an item, the ZIP, a folder's ZIP), a play of a video or audio (the
 * player switches to the file, which uses a download), and the page coming back into view
 * re-render the page's server part (router.refresh(): the count, the buttons, the notice) a few
 * times while the download's reservation lands. Renders nothing.
 */
export function LimitRefresh({ shareId }: { shareId: string }) {
  const router = useRouter();
  useEffect(() => {
    let timers: ReturnType<typeof setTimeout>[] = [];
    const soon = () => {
      timers.forEach(clearTimeout);
      timers = AFTER_MS.map((ms) => setTimeout(() => router.refresh(), ms));
    };
    const prefix = `/f/${shareId}/`;
    const onClick = (e: MouseEvent) => {
      const a = e.target instanceof Element ? e.target.closest('a') : null;
      if (a && new URL(a.href, location.href).pathname.startsWith(prefix)) soon();
    };
    // `play` does not bubble: listen in the capture phase.
    const onPlay = (e: Event) => {
      if (e.target instanceof HTMLMediaElement) soon();
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') router.refresh();
    };
    document.addEventListener('click', onClick);
    document.addEventListener('play', onPlay, true);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      timers.forEach(clearTimeout);
      document.removeEventListener('click', onClick);
      document.removeEventListener('play', onPlay, true);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [router, shareId]);
  return null;
}
