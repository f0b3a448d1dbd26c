'use client';

import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { tabIndexForKey } from '@/lib/client/tab-keys';

export interface MobileTab {
  id: string;
  label: string;
  /** A 24 × 24 outline icon (decorative: the label names the tab). */
  icon: ReactNode;
  panel: ReactNode;
}

/**
 * The native clients' layout for narrow screens: one panel at a time above a bottom tab bar
 * (Upload, Shares, Settings in /files). Tabs follow the WAI-ARIA pattern — roving tabindex,
 * arrows, Home/End — with 44 px targets and room for the home indicator. Controlled, so the
 * app can switch tabs itself (e.g. to Shares after an upload). Not yet used by /files.
 */
export function MobileTabs({ tabs, active, onChange, label }: { tabs: MobileTab[]; active: string; onChange: (id: string) => void; label: string }) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.max(0, tabs.findIndex((t) => t.id === active));
  const tabId = (i: number) => `${base}-tab-${tabs[i].id}`;
  const panelId = (i: number) => `${base}-panel-${tabs[i].id}`;

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const next = tabIndexForKey(e.key, current, tabs.length);
    if (next === null) return;
    e.preventDefault();
    onChange(tabs[next].id);
    refs.current[next]?.focus();
  }

  return (
    <div className="flex min-h-dvh flex-col">
      <div role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} tabIndex={0} className="flex-1 px-4 pb-24 pt-4 focus-visible:outline-none">
        {tabs[current]?.panel}
      </div>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="fixed inset-x-0 bottom-0 z-40 flex border-t border-zinc-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur dark:border-zinc-800 dark:bg-zinc-900/95"
      >
        {tabs.map((t, i) => {
          const selected = i === current;
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={tabId(i)}
              aria-selected={selected}
              aria-controls={selected ? panelId(i) : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(t.id)}
              className={`flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium ${selected ? 'text-indigo-700 dark:text-indigo-300' : 'text-zinc-600 dark:text-zinc-400'}`}
            >
              <span aria-hidden className="size-6 [&>svg]:size-6 [&>svg]:fill-none [&>svg]:stroke-current [&>svg]:[stroke-width:2]">
                {t.icon}
              </span>
              {t.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}
