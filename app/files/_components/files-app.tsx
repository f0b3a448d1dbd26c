'use client';

import { useCallback, useState } from 'react';
import { Button } from '@/app/_components/ui';
import { api } from '@/lib/client/api';
import type { UserDto } from '@/lib/users/user-dto';
import { AuthTabs } from './auth-tabs';
import { ProfilePanel } from './profile-panel';
import { QuotaMeter } from './quota-meter';
import { SharesPanel } from './shares-panel';
import type { FilesSession } from './types';
import { reservedBy, useShares } from './use-shares';
import { UsersPanel } from './users-panel';

type View = 'shares' | 'profile' | 'users';

export function FilesApp({ initialSession }: { initialSession: FilesSession | null }) {
  const [session, setSession] = useState(initialSession);
  const [view, setView] = useState<View>('shares');
  const shares = useShares(session !== null, session?.user?.id ?? null);

  const refresh = useCallback(async () => {
    try {
      const me = await api<{ role: 'admin' | 'member'; user: UserDto | null }>('/api/auth/me');
      setSession(me);
    } catch {
      setSession(null);
    }
  }, []);

  async function logout() {
    await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
    setSession(null);
    setView('shares');
  }

  if (!session) return <AuthTabs onSignedIn={setSession} />;
  const user = session.user;
  const name = user ? user.display_name || user.username : 'Administrator';
  const views: { id: View; label: string }[] = [
    { id: 'shares', label: 'Shares' },
    ...(user ? [{ id: 'profile' as const, label: 'Profile' }] : []),
    ...(session.role === 'admin' ? [{ id: 'users' as const, label: 'Users' }] : []),
  ];

  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <h1 className="text-lg font-semibold">htmls · files</h1>
          <div className="flex flex-wrap items-center gap-4 text-sm">
            {user ? <QuotaMeter user={user} reserved={reservedBy(shares.shares, user.id)} /> : null}
            <span data-testid="signed-in-as" className="font-medium">
              {name}
            </span>
            <Button variant="ghost" onClick={logout}>
              Sign out
            </Button>
          </div>
        </div>
        <nav aria-label="Sections" className="mx-auto flex max-w-5xl gap-1 px-4">
          {views.map((v) => (
            <button
              key={v.id}
              onClick={() => setView(v.id)}
              aria-current={view === v.id ? 'page' : undefined}
              className={`border-b-2 px-3 py-2 text-sm font-medium ${view === v.id ? 'border-indigo-600 text-indigo-700 dark:text-indigo-300' : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100'}`}
            >
              {v.label}
            </button>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        {view === 'shares' ? <SharesPanel session={session} data={shares} onUsageChanged={refresh} /> : null}
        {view === 'profile' && user ? <ProfilePanel user={user} onSaved={refresh} onDeleted={() => setSession(null)} /> : null}
        {view === 'users' && session.role === 'admin' ? <UsersPanel selfId={user?.id ?? null} onChanged={refresh} /> : null}
      </main>
    </div>
  );
}
