'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { LanguagePicker } from '@/app/_components/language-picker';
import { Button } from '@/app/_components/ui';
import { ApiError, callOperation } from '@/lib/client/api';
import { forgetConsoleSessions, hasConsoleSession } from '@/lib/client/console-session';
import { ssoErrorKey, takeSsoResult, type SsoSecondFactor } from '@/lib/client/sso-handoff';
import { NARROW, useMediaQuery } from '@/lib/client/use-media-query';
import { onAsync } from '@/lib/client/on-async';
import { AccessTokensPanel } from './access-tokens-panel';
import { WebhooksPanel } from './webhooks-panel';
import { AccountCard } from './account-card';
import { AuthTabs } from './auth-tabs';
import { MobileTabBar, mobilePanelProps, shownOn, type MobileTab } from './mobile-tabs';
import { ProfilePanel } from './profile-panel';
import { PasskeysPanel } from './passkeys-panel';
import { PasswordPanel, SessionsPanel, TwoFactorPanel } from './security-panel';
import { QuotaMeter } from './quota-meter';
import { SharesPanel } from './shares-panel';
import { SsoIdentityCard } from './sso-identity-card';
import type { FilesSession } from './types';
import { RequestsIcon, SettingsIcon, SharesIcon, UploadIcon } from './tab-icons';
import { RequestsPanel } from './requests-panel';
import { reservedBy, useShares } from './use-shares';
import { UsersPanel } from './users-panel';

type View = 'shares' | 'requests' | 'profile' | 'tokens' | 'users';
/** The phone layout's tabs: the native clients' Upload, Shares and Settings. */
type Tab = 'upload' | 'shares' | 'requests' | 'settings';
const TABS: (Omit<MobileTab, 'label'> & { id: Tab })[] = [
  { id: 'upload', icon: <UploadIcon /> },
  { id: 'shares', icon: <SharesIcon /> },
  { id: 'requests', icon: <RequestsIcon /> },
  { id: 'settings', icon: <SettingsIcon /> },
];

/**
 * Where in /files one is, as the URL's fragment says it (issue 41, item 11): `/files#requests`,
 * `#tokens`, `#settings`… — a section or tab can be bookmarked and linked, and Back and Forward
 * go through the ones visited. Both layouts read the one place: a wide screen's section and a
 * phone's tab follow from it (`#upload`, the default, has no fragment).
 */
type Place = View | Tab;
const PLACES: readonly Place[] = ['upload', 'shares', 'requests', 'profile', 'tokens', 'users', 'settings'];
const isPlace = (s: string): s is Place => (PLACES as readonly string[]).includes(s);
const tabOf = (p: Place): Tab => (p === 'profile' || p === 'tokens' || p === 'users' ? 'settings' : p);
const viewOf = (p: Place, hasProfile: boolean): View => (p === 'upload' ? 'shares' : p === 'settings' ? (hasProfile ? 'profile' : 'tokens') : p);
const placeInUrl = (): Place => {
  const hash = window.location.hash.slice(1);
  return isPlace(hash) ? hash : 'upload';
};

export function FilesApp() {
  const t = useTranslations('files');
  const picker = useTranslations('picker');
  // i18n-keys: ssoErrors.*
  const ssoErrors = useTranslations('ssoErrors');
  const locale = useLocale();
  // undefined while this console checks its session with the server (the page itself is the
  // same for everyone: a cookie alone does not say who signed in here — lib/client/console-session.ts).
  const [session, setSession] = useState<FilesSession | null | undefined>(undefined);
  const [place, setPlace] = useState<Place>('upload');
  const [ssoError, setSsoError] = useState('');
  const [ssoLinked, setSsoLinked] = useState(false);
  const [ssoStep, setSsoStep] = useState<SsoSecondFactor | null>(null);
  const narrow = useMediaQuery(NARROW);
  const idBase = useId();
  const shares = useShares(session != null, session?.user?.id ?? null);

  // The fragment opens its place (a reload and a bookmark keep it), and Back and Forward move
  // between places; a share-sheet launch (?shared=) always opens Upload, where the files are.
  useEffect(() => {
    if (!new URLSearchParams(window.location.search).has('shared')) setPlace(placeInUrl());
    const follow = () => setPlace(placeInUrl());
    window.addEventListener('popstate', follow);
    return () => window.removeEventListener('popstate', follow);
  }, []);
  function go(id: string) {
    if (!isPlace(id) || id === place) return;
    setPlace(id);
    const { pathname, search } = window.location;
    window.history.pushState(window.history.state, '', id === 'upload' ? `${pathname}${search}` : `${pathname}${search}#${id}`);
  }

  // Sign-outs so far: a refresh that began before one (a panel's onChanged just before "Sign
  // out") must not put the account back, nor later drop the sign-in form someone is typing in.
  const signOuts = useRef(0);
  const refresh = useCallback(async () => {
    const began = signOuts.current;
    try {
      const me = await callOperation('me');
      if (signOuts.current === began) setSession(me);
    } catch (err) {
      if (signOuts.current !== began) return;
      if (err instanceof ApiError && err.status === 401) forgetConsoleSessions();
      setSession(null);
    }
  }, []);

  useEffect(() => {
    // Back from single sign-on: the account it signed in (adopted only if this tab started it), or why not.
    const sso = takeSsoResult();
    if (sso.error) setSsoError(sso.error);
    setSsoStep(sso.secondFactor);
    setSsoLinked(sso.linked);
    if (hasConsoleSession('member') || hasConsoleSession('admin')) void refresh();
    else setSession(null);
  }, [refresh]);

  async function logout() {
    signOuts.current++;
    await callOperation('logout').catch(() => {});
    setSession(null);
    setPlace('upload');
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }

  if (session === undefined) return <main aria-busy="true" className="min-h-dvh" />;
  if (!session)
    return (
      <>
        <AuthTabs onSignedIn={setSession} notice={ssoError ? ssoErrors(ssoErrorKey(ssoError)) : ''} secondFactor={ssoStep} />
        <footer className="mx-auto flex max-w-md justify-end px-4 pb-8">
          <LanguagePicker locale={locale} label={picker('label')} />
        </footer>
      </>
    );
  const user = session.user;
  const name = user ? user.display_name || user.username : t('administrator');
  // i18n-keys: files.views.*, files.tabs.*
  const views: { id: View; label: string }[] = (['shares', 'requests', ...(user ? ['profile' as const] : []), 'tokens', ...(session.role === 'admin' ? ['users' as const] : [])] as View[]).map((id) => ({ id, label: t(`views.${id}`) }));
  const tabs: (MobileTab & { id: Tab })[] = TABS.map((tab) => ({ ...tab, label: t(`tabs.${tab.id}`) }));
  // A section this account does not have (#users for a member) shows Shares.
  const wanted = viewOf(place, user !== null);
  const view: View = views.some((v) => v.id === wanted) ? wanted : 'shares';
  const tab = tabOf(place);

  // Wide screens: today's header, section links and one view. Phones (below 640 px): the same
  // components on three tabs above a bottom tab bar; CSS picks what is seen, so the server's
  // HTML is right for both before any script runs.
  const settingsOpen = narrow && tab === 'settings';
  const requestsPanel = mobilePanelProps(idBase, 'requests', narrow);
  const settingsPanel = mobilePanelProps(idBase, 'settings', narrow);
  const reserved = user ? reservedBy(shares.shares, user.id) : 0;
  return (
    <div className="min-h-dvh max-sm:pb-[calc(4.5rem+env(safe-area-inset-bottom))]">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <h1 className="text-lg font-semibold">{t('heading')}</h1>
          <div className="flex min-w-0 flex-wrap items-center gap-4 text-sm">
            {user && !narrow ? (
              <div className="max-sm:hidden">
                <QuotaMeter user={user} reserved={reserved} />
              </div>
            ) : null}
            {/* The hosting console takes the Admin Token only, not an admin-role member. */}
            {session.role === 'admin' && !user ? (
              <a href="/htmls" className="text-zinc-600 hover:underline max-sm:hidden dark:text-zinc-400">
                {t('hosting')}
              </a>
            ) : null}
            <span data-testid="signed-in-as" className="min-w-0 truncate font-medium">
              {name}
            </span>
            {/* A member's language is Settings → Profile → Language (it comes before the cookie); the Admin Token session has no profile. */}
            {user ? null : <LanguagePicker locale={locale} label={picker('label')} />}
            <Button variant="ghost" className="max-sm:hidden" onClick={onAsync(logout)}>
              {t('signOut')}
            </Button>
          </div>
        </div>
        <nav aria-label={t('sections')} className="mx-auto flex max-w-5xl gap-1 px-4 max-sm:hidden">
          {views.map((v) => (
            <button
              key={v.id}
              onClick={() => go(v.id)}
              aria-current={view === v.id ? 'page' : undefined}
              className={`border-b-2 px-3 py-2 text-sm font-medium ${view === v.id ? 'border-indigo-600 text-indigo-700 dark:text-indigo-300' : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100'}`}
            >
              {v.label}
            </button>
          ))}
        </nav>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-6 max-sm:py-4">
        <SharesPanel
          session={session}
          data={shares}
          onUsageChanged={onAsync(refresh)}
          onShowList={narrow ? () => go('shares') : undefined}
          layout={(upload, list) => (
            <>
              <section {...mobilePanelProps(idBase, 'upload', narrow)} className={shownOn(view === 'shares', tab === 'upload')}>
                {upload}
              </section>
              <section {...mobilePanelProps(idBase, 'shares', narrow)} className={shownOn(view === 'shares', tab === 'shares')}>
                {list}
              </section>
            </>
          )}
        />
        <section {...requestsPanel} className={shownOn(view === 'requests', tab === 'requests')}>
          {view === 'requests' || (narrow && tab === 'requests') ? <RequestsPanel admin={session.role === 'admin'} canCreate={user !== null} myId={user?.id ?? null} /> : null}
        </section>
        <section {...settingsPanel} className={`space-y-6 ${shownOn(view !== 'shares' && view !== 'requests', tab === 'settings')}`}>
          {settingsOpen ? <AccountCard user={user} name={name} reserved={reserved} onSignOut={onAsync(logout)} /> : null}
          {user && (view === 'profile' || settingsOpen) ? <ProfilePanel user={user} onSaved={onAsync(refresh)} onDeleted={() => setSession(null)} /> : null}
          {user && (view === 'profile' || settingsOpen) ? <TwoFactorPanel user={user} onChanged={onAsync(refresh)} /> : null}
          {user && (view === 'profile' || settingsOpen) ? <PasskeysPanel /> : null}
          {user && (view === 'profile' || settingsOpen) ? <PasswordPanel /> : null}
          {user && (view === 'profile' || settingsOpen) ? <SessionsPanel /> : null}
          {user && (view === 'profile' || settingsOpen) ? <SsoIdentityCard linkedNow={ssoLinked} /> : null}
          {view === 'tokens' || settingsOpen ? <AccessTokensPanel admin={session.role === 'admin'} /> : null}
          {view === 'tokens' || settingsOpen ? <WebhooksPanel admin={session.role === 'admin'} /> : null}
          {session.role === 'admin' && (view === 'users' || settingsOpen) ? <UsersPanel selfId={user?.id ?? null} onChanged={onAsync(refresh)} /> : null}
        </section>
      </main>
      <MobileTabBar tabs={tabs} active={tab} onChange={go} label={t('sections')} idBase={idBase} />
    </div>
  );
}
