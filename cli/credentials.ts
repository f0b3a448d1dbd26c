/**
 * Where the CLI keeps its session: the OS keyring when there is one (macOS Keychain, Windows
 * Credential Manager, the Secret Service on Linux desktops, through @napi-rs/keyring), else a
 * 0600 file. credentials.json always holds the server URL, role and username; it holds the
 * token itself only when no keyring could take it. HTMLS_NO_KEYRING=1 forces the file.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { configDir } from '../lib/client/node/sdk';
import { UsageError } from './errors';

export interface Credentials {
  url: string;
  role: 'admin' | 'member';
  username: string | null;
}

/** `env`: HTMLS_TOKEN (an access token) and HTMLS_URL, for CI and scripts; nothing is saved. */
export type Store = 'keyring' | 'file' | 'env';

interface SavedFile extends Credentials {
  store: Store;
  /** Only when store is 'file'. */
  token?: string;
}

export interface SignedIn extends Credentials {
  token: string;
  store: Store;
}

const SERVICE = 'htmls';
const credentialsFile = () => path.join(configDir(), 'credentials.json');

/** The keyring entry for a server, or null when no keyring is usable here. */
async function keyringEntry(url: string) {
  if (process.env.HTMLS_NO_KEYRING === '1') return null;
  try {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return new AsyncEntry(SERVICE, url);
  } catch {
    // No prebuilt binary for this platform.
    return null;
  }
}

async function writeFile600(data: SavedFile) {
  await mkdir(configDir(), { recursive: true, mode: 0o700 });
  await rm(credentialsFile(), { force: true }); // a new file gets mode 0600 even if the old one was wider
  await writeFile(credentialsFile(), JSON.stringify(data), { mode: 0o600 });
}

/** Saves the session; says where the token went. */
export async function saveCredentials(c: Credentials, token: string): Promise<Store> {
  const entry = await keyringEntry(c.url);
  if (entry) {
    try {
      await entry.setPassword(token);
      // A store that accepts and forgets (no persistent keyring) is no store.
      if ((await entry.getPassword()) === token) {
        await writeFile600({ ...c, store: 'keyring' });
        return 'keyring';
      }
    } catch {
      // No keyring service (SSH sessions, containers, CI): the file below.
    }
  }
  await writeFile600({ ...c, store: 'file', token });
  return 'file';
}

/** credentials.json as saved; undefined when it is missing or not JSON. */
async function readSaved(): Promise<SavedFile | undefined> {
  try {
    return JSON.parse(await readFile(credentialsFile(), 'utf8')) as SavedFile;
  } catch {
    return undefined;
  }
}

/**
 * HTMLS_TOKEN (an access token, htmls_pat_…) wins over a saved login, so a CI job needs one
 * secret and no `htmls login`. The server is HTMLS_URL, else the last login's.
 */
export async function loadCredentials(): Promise<SignedIn | null> {
  const envToken = process.env.HTMLS_TOKEN;
  if (envToken) {
    const url = process.env.HTMLS_URL || (await readSaved())?.url;
    if (!url) throw new UsageError('HTMLS_TOKEN is set but not the server: set HTMLS_URL too (https://files.example.com)');
    return { url: url.replace(/\/+$/, ''), role: 'member', username: null, token: envToken, store: 'env' };
  }
  const saved = await readSaved();
  if (saved === undefined) return null;
  if (saved.token) return { ...saved, store: 'file', token: saved.token };
  const entry = await keyringEntry(saved.url);
  const token = await entry?.getPassword().catch(() => null);
  return token ? { ...saved, store: 'keyring', token } : null;
}

/** The server URL of the last session, even when its token is gone. */
export async function lastUrl(): Promise<string | undefined> {
  return (await readSaved())?.url;
}

export async function forgetCredentials(c: { url: string; store: Store } | null): Promise<void> {
  if (c?.store === 'env') return;
  if (c?.store === 'keyring') await (await keyringEntry(c.url))?.deletePassword().catch(() => false);
  await rm(credentialsFile(), { force: true });
}

export const describeStore = (store: Store) => (store === 'keyring' ? 'the OS keyring' : store === 'env' ? 'HTMLS_TOKEN' : credentialsFile());
