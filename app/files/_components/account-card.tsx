'use client';

import { Button, Card } from '@/app/_components/ui';
import type { UserDto } from '@/lib/contract/dtos';
import { QuotaMeter } from './quota-meter';

/** The Settings tab's top (phones): who is signed in, the quota meter and Sign out. */
export function AccountCard({ user, name, reserved, onSignOut }: { user: UserDto | null; name: string; reserved: number; onSignOut: () => void }) {
  return (
    <Card>
      <h2 className="text-base font-semibold">Account</h2>
      <p className="mt-1 break-words text-sm text-subtle">
        Signed in as <strong className="text-zinc-900 dark:text-zinc-100">{name}</strong>
      </p>
      {user ? (
        <div className="mt-4">
          <QuotaMeter user={user} reserved={reserved} className="w-full" />
        </div>
      ) : null}
      <Button variant="secondary" className="mt-4 w-full" onClick={onSignOut}>
        Sign out
      </Button>
    </Card>
  );
}
