'use client';

import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { tabIndexForKey } from '@/lib/client/tab-keys';

export interface MobileTab {
  id: string;
  label: string;
  /** A 24 × 24 outline icon (decorative: the label names the tab). */
  icon: ReactNode;
}

const mobileTabId = (base: string, id: string) => `${base}-tab-${id}`;
const mobilePanelId = (base: string, id: string) => `${base}-panel-${id}`;

/**
 * The attributes of one tab's panel. Panels stay mounted (an upload keeps running while its
 * owner looks at Shares) and CSS shows the active one; only on narrow screens, where the tab
 * bar is shown, are they announced as tab panels.
 */
export function mobilePanelProps(base: string, id: string, narrow: boolean) {
  return narrow ? { id: mobilePanelId(base, id), role: 'tabpanel', 'aria-labelledby': mobileTabId(base, id) } : { id: mobilePanelId(base, id) };
}

/**
 * Shows a section on wide screens (Tailwind's `sm` and up) and on narrow ones independently:
 * the two layouts arrange the same mounted components.
 */
export const shownOn = (wide: boolean, narrow: boolean) => `${wide ? 'sm:block' : 'sm:hidden'} ${narrow ? 'max-sm:block' : 'max-sm:hidden'}`;

/**
 * The native clients' bottom tab bar for narrow screens (Upload, Shares, Settings in /files);
 * hidden from `sm` up. Tabs follow the WAI-ARIA pattern — roving tabindex, arrows, Home/End —
 * with 56 px targets and room for the home indicator. Controlled, so the app can switch tabs
 * itself (a share-sheet launch opens Upload).
 */
export function MobileTabBar({ tabs, active, onChange, label, idBase }: { tabs: MobileTab[]; active: string; onChange: (id: string) => void; label: string; idBase: string }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.max(0, tabs.findIndex((t) => t.id === active));

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const next = tabIndexForKey(e.key, current, tabs.length);
    if (next === null) return;
    e.preventDefault();
    onChange(tabs[next].id);
    refs.current[next]?.focus();
  }

  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      data-bottom-bar
      className="fixed inset-x-0 bottom-0 z-40 flex border-t border-zinc-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur sm:hidden dark:border-zinc-800 dark:bg-zinc-900/95"
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
            id={mobileTabId(idBase, t.id)}
            aria-selected={selected}
            aria-controls={mobilePanelId(idBase, t.id)}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t.id)}
            data-testid={`tab-${t.id}`}
            className={`flex min-h-14 flex-1 flex-col items-center justify-center gap-0.5 text-xs font-medium ${selected ? 'text-indigo-700 dark:text-indigo-300' : 'text-subtle'}`}
          >
            <span aria-hidden className="size-6 [&>svg]:size-6 [&>svg]:fill-none [&>svg]:stroke-current [&>svg]:[stroke-width:2]">
              {t.icon}
            </span>
            {t.label}
          </button>
        );
      })}
    </div>
  );
}
