'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { Button, buttonClass, Card, ErrorText, SuccessText } from '@/app/_components/ui';
import { callOperation } from '@/lib/client/api';
import { useDescribeError } from '@/lib/client/error-text';
import { markSsoStarted, startSsoHref } from '@/lib/client/sso-handoff';
import type { OidcIdentity } from '@/lib/contract/dtos';
import { onAsync } from '@/lib/client/on-async';

/** Settings: the account's link to the single sign-on provider, with Link and Unlink (issue 42). */
export function SsoIdentityCard({ linkedNow }: { linkedNow: boolean }) {
  const describeError = useDescribeError();
  const t = useTranslations('ssoIdentity');
  const format = useFormatter();
  const formatDate = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
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
      <h2 className="text-base font-semibold">{t('heading')}</h2>
      {identity ? (
        <div className="mt-2 space-y-3 text-sm">
          <p className="text-muted" data-testid="sso-identity">
            {t('linked', {
              provider: provider.name,
              hasEmail: identity.email ? 'yes' : 'no',
              email: identity.email ?? '',
              since: formatDate(identity.created_at),
              hasLast: identity.last_login_at ? 'yes' : 'no',
              last: identity.last_login_at ? formatDate(identity.last_login_at) : '',
            })}
          </p>
          <SuccessText>{linkedNow ? t('linkedNow') : null}</SuccessText>
          {state.has_password ? (
            <Button variant="secondary" disabled={busy} onClick={onAsync(unlink)}>
              {t('unlink')}
            </Button>
          ) : (
            <p className="text-subtle">{t('noPassword', { provider: provider.name })}</p>
          )}
          <ErrorText>{error}</ErrorText>
        </div>
      ) : (
        <div className="mt-2 space-y-3 text-sm">
          <p className="text-muted">{t('notLinked', { provider: provider.name })}</p>
          <a href={startSsoHref('/files#settings', true)} onClick={markSsoStarted} className={buttonClass('secondary')}>
            {t('link', { provider: provider.name })}
          </a>
        </div>
      )}
    </Card>
  );
}
