import { createTranslator } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import de from '../../messages/de.json' with { type: 'json' };
import en from '../../messages/en.json' with { type: 'json' };
import { discardWording, interruptedNotice } from './pending-wording';

const english = createTranslator({ locale: 'en', messages: en, namespace: 'upload' });
const german = createTranslator({ locale: 'de', messages: de as typeof en, namespace: 'upload' });
const notice = (own: number, guests: number, t = english) => interruptedNotice(own, guests, t);
const words = createTranslator({ locale: 'en', messages: en, namespace: 'shares' });
const discard = (share: Parameters<typeof discardWording>[0], mine: boolean) => discardWording(share, mine, words);

describe('unfinished uploads in the console (issue 41, item 4)', () => {
  it("never asks the owner to resume a guest's upload", () => {
    expect(notice(1, 0)).toBe('An upload was interrupted. Resume or discard it in the share list.');
    const guests = notice(0, 2);
    expect(guests).not.toMatch(/resume or discard/i);
    expect(guests).toMatch(/2 guests’ uploads to your file requests are unfinished: only the senders can resume them; discard them/);
    expect(notice(0, 0)).toBe('');
    expect(notice(2, 1)).toMatch(/^2 uploads were interrupted\. Resume or discard them in the share list\. A guest’s upload/);
    // German says the same: a guest's upload is the sender's to resume.
    expect(notice(0, 1, german)).toMatch(/^Der Upload eines Gastes zu Ihrer Dateianfrage ist unfertig: Nur der Absender kann ihn fortsetzen/);
    expect(notice(3, 0, german)).toBe('3 Uploads wurden unterbrochen. Setzen Sie sie in der Freigabeliste fort oder verwerfen Sie sie.');
  });

  it("names a guest's upload after the guest, never after the owner", () => {
    const named = discard({ username: 'olivia', received: { name: 'Dana' } }, false);
    expect(named.title).toBe('Discard “Dana”’s upload?');
    expect(named.title).not.toContain('olivia');
    expect(named.text).toMatch(/A guest started this upload through your file request/);
    expect(discard({ username: 'olivia', received: { name: ' ' } }, false).title).toBe('Discard a guest’s upload?');
    expect(discard({ username: 'olivia', received: { name: 'x'.repeat(60) } }, false).title).toBe(`Discard “${'x'.repeat(39)}…”’s upload?`);
  });

  it("words the member's own and another member's uploads as before", () => {
    expect(discard({ username: 'me', received: null }, true)).toMatchObject({ button: 'Discard', title: 'Discard this upload?' });
    expect(discard({ username: 'bob', received: null }, false)).toMatchObject({ button: 'Abort upload', title: 'Abort bob’s upload?' });
  });
});
