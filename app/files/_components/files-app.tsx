'use client';

import { useState } from 'react';
import { api } from '@/lib/client/api';
import { AuthTabs } from './auth-tabs';
import type { FilesSession } from './types';
import { Button } from '@/app/_components/ui';

export function FilesApp({ initialSession }: { initialSession: FilesSession | null }) {
  const [session, setSession] = useState(initialSession);

  async function logout() {
    await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
    setSession(null);
  }

  if (!session) return <AuthTabs onSignedIn={setSession} />;
  const name = session.user ? session.user.display_name || session.user.username : 'Administrator';
  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
          <h1 className="text-lg font-semibold">htmls · files</h1>
          <div className="flex items-center gap-3 text-sm">
            <span data-testid="signed-in-as">{name}</span>
            <Button variant="ghost" onClick={logout}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-6">
        <p className="text-sm text-zinc-500">No shares yet.</p>
      </main>
    </div>
  );
}
