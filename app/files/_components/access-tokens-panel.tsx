'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useCallback, useEffect, useState } from 'react';
import { ConfirmDialog, CopyButton, Dialog } from '@/app/_components/client-ui';
import { boldName, Button, codeTag, Card, Checkbox, CHECKBOX_LABEL, ErrorText, Field } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { sharexConfig, sharexFileName, snippets } from '@/lib/client/integrations';
import { ADMIN_SCOPES, MEMBER_SCOPES, type Scope } from '@/lib/contract/scopes';
import type { ResponseOf } from '@/lib/contract/operations';
import { onAsync } from '@/lib/client/on-async';
import { useDescribeError } from '@/lib/client/error-text';

type Token = ResponseOf<'listTokens'>['tokens'][number];
type TokensT = ReturnType<typeof useTranslations<'tokens'>>;
const EXPIRIES = [30, 90, 365, 0];
/** Each scope's description, in the page's language (lib/contract/scopes.ts keeps the English one for the API's documentation). */
const SCOPE_KEYS = {
  'shares:read': 'scopeSharesRead',
  'shares:write': 'scopeSharesWrite',
  'requests:read': 'scopeRequestsRead',
  'requests:write': 'scopeRequestsWrite',
  'account:read': 'scopeAccountRead',
  'sites:deploy': 'scopeSitesDeploy',
  admin: 'scopeAdmin',
} as const satisfies Record<Scope, string>;
const expiryOf = (days: number) => (days ? new Date(Date.now() + days * 86400_000).toISOString() : null);

/**
 * /files → Settings → Access tokens: tokens for scripts, ShareX and phones. A secret is shown
 * once, right after it is made; the list shows only its prefix.
 */
export function AccessTokensPanel({ admin }: { admin: boolean }) {
  const describeError = useDescribeError();
  const t = useTranslations('tokens');
  const format = useFormatter();
  const formatDate = (iso: string) => format.dateTime(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
  const [tokens, setTokens] = useState<Token[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['shares:write']);
  const [days, setDays] = useState(90);
  const [sharex, setSharex] = useState<{ days: number } | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const [error, setError] = useState('');
  // The server renders this too: the origin is the browser's, read after hydration.
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);

  const load = useCallback(async (after?: string) => {
    try {
      const page = await api<ResponseOf<'listTokens'>>(`/api/tokens${after ? `?cursor=${encodeURIComponent(after)}` : ''}`);
      setTokens((old) => (after ? [...old, ...page.tokens] : page.tokens));
      setCursor(page.next_cursor);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  async function create(body: { name: string; scopes: string[]; expires_at: string | null }) {
    setError('');
    const made = await callOperation('createToken', { body });
    await load();
    return made;
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    try {
      const made = await create({ name: name.trim() || 'Script', scopes, expires_at: expiryOf(days) });
      setSecret({ name: made.token.name, value: made.secret });
      setName('');
    } catch (err) {
      setError(describeError(err));
    }
  }

  /**
   * A new shares:write token, bound into a .sxcu file ShareX imports as is. The dialog says so
   * and asks how long it lives: a file that uploads as you should not do so for ever unasked.
   */
  async function downloadSharex(expiryDays: number) {
    try {
      const made = await create({ name: 'ShareX', scopes: ['shares:write'], expires_at: expiryOf(expiryDays) });
      setSharex(null);
      const blob = new Blob([JSON.stringify(sharexConfig(origin, made.secret), null, 2)], { type: 'application/json' });
      const a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = sharexFileName(origin);
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (err) {
      setSharex(null);
      setError(describeError(err));
    }
  }

  const offered: Scope[] = admin ? [...MEMBER_SCOPES, ...ADMIN_SCOPES] : [...MEMBER_SCOPES];
  const toggle = (s: Scope, on: boolean) => setScopes(on ? [...scopes, s] : scopes.filter((x) => x !== s));
  const shown = snippets(origin, secret?.value);
  return (
    <Card>
      <h2 className="text-base font-semibold">{t('heading')}</h2>
      <p className="mt-1 text-sm text-muted">
        {t('intro')}
      </p>
      <form onSubmit={onAsync(submit)} className="mt-4 space-y-3" aria-label={t('formLabel')}>
        <Field label={t('nameLabel')} value={name} maxLength={100} placeholder={t('namePlaceholder')} onChange={(e) => setName(e.target.value)} />
        <fieldset className="space-y-1">
          <legend className="mb-1 text-sm font-medium">{t('scopes')}</legend>
          {offered.map((s) => (
            // 44 px tall labels on phones (touch targets), like every control of the console there.
            <label key={s} className={`${CHECKBOX_LABEL} text-sm`}>
              <Checkbox checked={scopes.includes(s)} onChange={(e) => toggle(s, e.target.checked)} />
              <span>
                <code>{s}</code> — {t(SCOPE_KEYS[s])}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">{t('expires')}</span>
          <ExpirySelect value={days} onChange={setDays} t={t} />
        </label>
        <ErrorText>{error}</ErrorText>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={scopes.length === 0}>
            {t('create')}
          </Button>
          <Button type="button" variant="secondary" onClick={() => setSharex({ days: 90 })}>
            {t('sharex')}
          </Button>
        </div>
      </form>
      {secret ? (
        <div role="status" className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          <p>
            {t.rich('secret', {
              name: secret.name,
              b: boldName,
            })}
          </p>
          <code data-testid="token-secret" dir="ltr" className="block break-all font-mono">
            {secret.value}
          </code>
          <CopyButton text={secret.value} label={t('copyToken')} />
        </div>
      ) : null}
      <ul className="mt-4 divide-y divide-zinc-100 text-sm dark:divide-zinc-800" aria-label={t('listLabel')}>
        {tokens.map((tk) => (
          <li key={tk.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid={`token-${tk.name}`}>
            <span className="min-w-0">
              <strong>
                <bdi>{tk.name}</bdi>
              </strong>{' '}
              <code className="text-muted">{tk.prefix}…</code>
              <span className="block text-xs text-muted">
                <bdi>{tk.scopes.join(', ')}</bdi> · {tk.expires_at ? t('expiresOn', { date: formatDate(tk.expires_at) }) : t('noExpiry')} ·{' '}
                {tk.last_used_at ? t('lastUsedFrom', { date: formatDate(tk.last_used_at), ip: tk.last_used_ip ?? '' }) : t('neverUsed')}
              </span>
            </span>
            <Button variant="danger" onClick={() => setRevoking(tk)} aria-label={t('revokeLabel', { name: tk.name })}>
              {t('revoke')}
            </Button>
          </li>
        ))}
      </ul>
      {cursor ? (
        <Button variant="secondary" onClick={onAsync(() => load(cursor))}>
          {t('showMore')}
        </Button>
      ) : null}
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium">{t('useSummary')}</summary>
        <div className="mt-2 space-y-3">
          {[
            [t('snippetCurl'), shown.curl],
            [t('snippetCurlForm'), shown.curlForm],
            [t('snippetCli'), shown.cli],
            [t('snippetPhone'), shown.phone],
          ].map(([title, text]) => (
            <div key={title}>
              <p className="font-medium">{title}</p>
              <pre dir="ltr" className="mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">{text}</pre>
              <CopyButton text={text} label={t('copy')} />
            </div>
          ))}
        </div>
      </details>
      <Dialog open={sharex !== null} onClose={() => setSharex(null)} title={t('sharex')}>
        <div className="space-y-3 text-sm">
          <p className="text-subtle">
            {t.rich('sharexIntro', { b: (chunks) => <strong>{chunks}</strong>, code: codeTag })}
          </p>
          <label className="block">
            <span className="mb-1 block font-medium">{t('tokenExpires')}</span>
            <ExpirySelect value={sharex?.days ?? 90} onChange={(d) => setSharex({ days: d })} t={t} />
          </label>
          {sharex?.days === 0 ? (
            <p className="text-amber-800 dark:text-amber-300" data-testid="sharex-never">
              {t('sharexNever')}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setSharex(null)}>
              {t('cancel')}
            </Button>
            <Button type="button" onClick={onAsync(() => sharex && downloadSharex(sharex.days))}>
              {t('download')}
            </Button>
          </div>
        </div>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={t('revokeTitle', { name: revoking?.name ?? '' })}
        text={t('revokeText')}
        action={t('revokeAction')}
        onConfirm={onAsync(async () => {
          try {
            setRevoking(null);
            if (revoking) await callOperation('deleteToken', { params: { id: revoking.id } });
            await load();
          } catch (err) {
            setError(describeError(err));
          }
        })}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
}

function ExpirySelect({ value, onChange, t }: { value: number; onChange: (days: number) => void; t: TokensT }) {
  return (
    <select value={value} onChange={(e) => onChange(Number(e.target.value))} className="rounded-md border border-zinc-300 bg-white px-3 py-2 max-sm:min-h-11 dark:border-zinc-700 dark:bg-zinc-900">
      {EXPIRIES.map((days) => (
        <option key={days} value={days}>
          {days === 0 ? t('expiryNever') : days === 365 ? t('expiryYear') : t('expiryDays', { days })}
        </option>
      ))}
    </select>
  );
}
