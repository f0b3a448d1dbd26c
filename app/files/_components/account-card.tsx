'use client';

import { useTranslations } from 'next-intl';
import { Button, Card } from '@/app/_components/ui';
import type { UserDto } from '@/lib/contract/dtos';
import { QuotaMeter } from './quota-meter';

/** The Settings tab's top (phones): who is signed in, the quota meter and Sign out. */
export function AccountCard({ user, name, reserved, onSignOut }: { user: UserDto | null; name: string; reserved: number; onSignOut: () => void }) {
  const t = useTranslations('files');
  return (
    <Card>
      <h2 className="text-base font-semibold">{t('account.heading')}</h2>
      <p className="mt-1 break-words text-sm text-subtle">
        {t.rich('account.signedInAs', { name, b: (chunks) => <strong className="text-zinc-900 dark:text-zinc-100">{chunks}</strong> })}
      </p>
      {user ? (
        <div className="mt-4">
          <QuotaMeter user={user} reserved={reserved} className="w-full" />
        </div>
      ) : null}
      <Button variant="secondary" className="mt-4 w-full" onClick={onSignOut}>
        {t('signOut')}
      </Button>
    </Card>
  );
}
