'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/app/_components/ui';
import { api } from '@/lib/client/api';
import { ChangeTokenForm } from './change-token-form';

export function AdminConsole() {
  const router = useRouter();
  async function logout() {
    await api('/api/auth/logout', { method: 'POST' }).catch(() => {});
    router.refresh();
  }
  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-4 py-3">
          <h1 className="text-lg font-semibold">htmls · hosting</h1>
          <Button variant="ghost" onClick={logout}>
            Sign out
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6">
        <section aria-labelledby="projects-heading">
          <h2 id="projects-heading" className="text-base font-semibold">
            Projects
          </h2>
          <p className="mt-2 text-sm text-zinc-500">No projects yet.</p>
        </section>
        <ChangeTokenForm />
      </main>
    </div>
  );
}
