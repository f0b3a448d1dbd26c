'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { registerAppWorker } from '@/lib/client/service-worker';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/**
 * Makes a console an installable app (registers its service worker) and says plainly when the
 * network is gone, since every action here needs it.
 */
export function AppWorker({ scope }: { scope: '/files' | '/htmls' }) {
  const online = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  useEffect(() => {
    registerAppWorker(scope).catch(() => {});
  }, [scope]);
  return (
    <div role="status" aria-live="polite" className={online ? 'sr-only' : 'sticky top-0 z-50'}>
      {online ? null : (
        <p className="bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          You are offline. Uploads and changes need a connection; they work again once you reconnect.
        </p>
      )}
    </div>
  );
}
