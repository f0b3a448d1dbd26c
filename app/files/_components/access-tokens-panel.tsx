'use client';

import { useCallback, useEffect, useState } from 'react';
import { ConfirmDialog, CopyButton, Dialog } from '@/app/_components/client-ui';
import { Button, Card, Checkbox, CHECKBOX_LABEL, ErrorText, Field } from '@/app/_components/ui';
import { api, callOperation } from '@/lib/client/api';
import { describeError, formatDate } from '@/lib/client/format';
import { sharexConfig, sharexFileName, snippets } from '@/lib/client/integrations';
import { ADMIN_SCOPES, MEMBER_SCOPES, SCOPE_DESCRIPTIONS, type Scope } from '@/lib/contract/scopes';
import type { ResponseOf } from '@/lib/contract/operations';
import { onAsync } from '@/lib/client/on-async';

type Token = ResponseOf<'listTokens'>['tokens'][number];
const EXPIRIES = [
  { label: '30 days', days: 30 },
  { label: '90 days', days: 90 },
  { label: '1 year', days: 365 },
  { label: 'Never', days: 0 },
];
const expiryOf = (days: number) => (days ? new Date(Date.now() + days * 86400_000).toISOString() : null);

/**
 * /files → Settings → Access tokens: tokens for scripts, ShareX and phones. A secret is shown
 * once, right after it is made; the list shows only its prefix.
 */
export function AccessTokensPanel({ admin }: { admin: boolean }) {
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
      setTokens((t) => (after ? [...t, ...page.tokens] : page.tokens));
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
      <h2 className="text-base font-semibold">Access tokens</h2>
      <p className="mt-1 text-sm text-muted">
        For scripts, ShareX and phone shortcuts: a token acts as you with only the scopes you tick. It cannot manage tokens, your password or your account.
      </p>
      <form onSubmit={onAsync(submit)} className="mt-4 space-y-3" aria-label="New access token">
        <Field label="Token name" value={name} maxLength={100} placeholder="e.g. backup script" onChange={(e) => setName(e.target.value)} />
        <fieldset className="space-y-1">
          <legend className="mb-1 text-sm font-medium">Scopes</legend>
          {offered.map((s) => (
            // 44 px tall labels on phones (touch targets), like every control of the console there.
            <label key={s} className={`${CHECKBOX_LABEL} text-sm`}>
              <Checkbox checked={scopes.includes(s)} onChange={(e) => toggle(s, e.target.checked)} />
              <span>
                <code>{s}</code> — {SCOPE_DESCRIPTIONS[s]}
              </span>
            </label>
          ))}
        </fieldset>
        <label className="block text-sm">
          <span className="mb-1 block font-medium">Expires</span>
          <ExpirySelect value={days} onChange={setDays} />
        </label>
        <ErrorText>{error}</ErrorText>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={scopes.length === 0}>
            Create token
          </Button>
          <Button type="button" variant="secondary" onClick={() => setSharex({ days: 90 })}>
            Download ShareX config
          </Button>
        </div>
      </form>
      {secret ? (
        <div role="status" className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
          <p>
            The secret of <strong>{secret.name}</strong> — copy it now, it is not shown again:
          </p>
          <code data-testid="token-secret" className="block break-all font-mono">
            {secret.value}
          </code>
          <CopyButton text={secret.value} label="Copy token" />
        </div>
      ) : null}
      <ul className="mt-4 divide-y divide-zinc-100 text-sm dark:divide-zinc-800" aria-label="Your access tokens">
        {tokens.map((t) => (
          <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid={`token-${t.name}`}>
            <span className="min-w-0">
              <strong>{t.name}</strong> <code className="text-muted">{t.prefix}…</code>
              <span className="block text-xs text-muted">
                {t.scopes.join(', ')} · {t.expires_at ? `expires ${formatDate(t.expires_at)}` : 'no expiry'} ·{' '}
                {t.last_used_at ? `last used ${formatDate(t.last_used_at)} from ${t.last_used_ip}` : 'never used'}
              </span>
            </span>
            <Button variant="danger" onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      {cursor ? (
        <Button variant="secondary" onClick={onAsync(() => load(cursor))}>
          Show more
        </Button>
      ) : null}
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium">Use a token: curl, the CLI, ShareX, phones</summary>
        <div className="mt-2 space-y-3">
          {[
            ['curl -T (one file, one request)', shown.curl],
            ['curl, several files', shown.curlForm],
            ['The htmls CLI', shown.cli],
            ['iOS Shortcut / Android share action', shown.phone],
          ].map(([title, text]) => (
            <div key={title}>
              <p className="font-medium">{title}</p>
              <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">{text}</pre>
              <CopyButton text={text} label="Copy" />
            </div>
          ))}
        </div>
      </details>
      <Dialog open={sharex !== null} onClose={() => setSharex(null)} title="Download ShareX config">
        <div className="space-y-3 text-sm">
          <p className="text-subtle">
            The file holds a new access token, <strong>ShareX</strong>, that creates shares as you (<code>shares:write</code>). Anyone who has the file can upload
            as you until the token expires or you revoke it here.
          </p>
          <label className="block">
            <span className="mb-1 block font-medium">Token expires</span>
            <ExpirySelect value={sharex?.days ?? 90} onChange={(d) => setSharex({ days: d })} />
          </label>
          {sharex?.days === 0 ? (
            <p className="text-amber-800 dark:text-amber-300" data-testid="sharex-never">
              This token never expires: revoke it under Access tokens when you stop using ShareX.
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => setSharex(null)}>
              Cancel
            </Button>
            <Button type="button" onClick={onAsync(() => sharex && downloadSharex(sharex.days))}>
              Download
            </Button>
          </div>
        </div>
      </Dialog>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? ''}?`}
        text="Scripts and apps using it stop working at once. This cannot be undone."
        action="Revoke token"
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

function ExpirySelect({ value, onChange }: { value: number; onChange: (days: number) => void }) {
  return (
    <select value={value} onChange={(e) => onChange(Number(e.target.value))} className="rounded-md border border-zinc-300 bg-white px-3 py-2 max-sm:min-h-11 dark:border-zinc-700 dark:bg-zinc-900">
      {EXPIRIES.map((x) => (
        <option key={x.days} value={x.days}>
          {x.label}
        </option>
      ))}
    </select>
  );
}
