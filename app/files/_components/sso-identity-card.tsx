'use client';

import { useEffect, useState } from 'react';
import { Button, buttonClass, Card, ErrorText, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { describeError, formatDate } from '@/lib/client/format';
import { markSsoStarted, startSsoHref } from '@/lib/client/sso-handoff';
import type { OidcIdentity } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';

/** Settings: the account's link to the single sign-on provider, with Link and Unlink (issue 42). */
export function SsoIdentityCard({ linkedNow }: { linkedNow: boolean }) {
  const [state, setState] = useState<OidcIdentity | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    callOperation('getOidcIdentity')
      .then(setState)
      .catch(() => setState(null));
  }, []);

  if (!state?.provider) return null;
  const { provider, identity } = state;

  async function unlink() {
    setBusy(true);
    setError('');
    try {
      await callOperation('unlinkOidcIdentity');
      setState((s) => (s ? { ...s, identity: null } : s));
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <h2 className="text-base font-semibold">Single sign-on</h2>
      {identity ? (
        <div className="mt-2 space-y-3 text-sm">
          <p className="text-muted" data-testid="sso-identity">
            Linked to {provider.name}
            {identity.email ? ` as ${identity.email}` : ''} since {formatDate(identity.created_at)}
            {identity.last_login_at ? `; last sign-in ${formatDate(identity.last_login_at)}` : ''}.
          </p>
          <SuccessText>{linkedNow ? 'Linked.' : null}</SuccessText>
          {state.has_password ? (
            <Button variant="secondary" disabled={busy} onClick={onAsync(unlink)}>
              Unlink
            </Button>
          ) : (
            <p className="text-subtle">This account has no password: {provider.name} is the only way in, so it stays linked.</p>
          )}
          <ErrorText>{error}</ErrorText>
        </div>
      ) : (
        <div className="mt-2 space-y-3 text-sm">
          <p className="text-muted">Sign in with {provider.name} instead of your password once it is linked to this account.</p>
          <a href={startSsoHref('/files#settings', true)} onClick={markSsoStarted} className={buttonClass('secondary')}>
            Link {provider.name}
          </a>
        </div>
      )}
    </Card>
  );
}
