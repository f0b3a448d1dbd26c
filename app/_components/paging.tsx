'use client';

import { useEffect, useRef } from 'react';
import { Button } from './ui';

/**
 * The end of a paged list: loads the next page when it scrolls into view (a sentinel watched by
 * an IntersectionObserver), and is also a button for keyboards and for browsers that scroll
 * nothing (a short list in a tall window keeps loading until the window is full or the list ends).
 */
export function LoadMore({ hasMore, loading, onMore, label = 'Load more', loadingLabel = 'Loading…' }: { hasMore: boolean; loading: boolean; onMore: () => void; label?: string; loadingLabel?: string }) {
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || loading || typeof IntersectionObserver === 'undefined') return;
    const seen = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) onMore();
    }, { rootMargin: '200px' });
    seen.observe(el);
    return () => seen.disconnect();
  }, [hasMore, loading, onMore]);
  if (!hasMore) return null;
  return (
    <div ref={sentinel} className="mt-3 flex justify-center">
      <Button variant="secondary" onClick={onMore} disabled={loading} data-testid="load-more">
        {loading ? loadingLabel : label}
      </Button>
    </div>
  );
}

/** A search box whose query the list sends to the server (API.md `?q=`). */
export function SearchBox({ value, onChange, label, placeholder }: { value: string; onChange: (q: string) => void; label: string; placeholder: string }) {
  return (
    <input
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="w-56 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm max-sm:min-h-11 dark:border-zinc-700 dark:bg-zinc-900"
    />
  );
}
