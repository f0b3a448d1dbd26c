import { describe, expect, it } from 'vitest';
import { discardWording, interruptedNotice } from './pending-wording';

describe('unfinished uploads in the console (issue 41, item 4)', () => {
  it("never asks the owner to resume a guest's upload", () => {
    expect(interruptedNotice(1, 0)).toBe('An upload was interrupted. Resume or discard it in the share list.');
    const guests = interruptedNotice(0, 2);
    expect(guests).not.toMatch(/resume or discard/i);
    expect(guests).toMatch(/2 guests’ uploads to your file requests are unfinished: only the sender can resume them; discard them/);
    expect(interruptedNotice(0, 0)).toBe('');
    expect(interruptedNotice(2, 1)).toMatch(/^2 uploads were interrupted\. Resume or discard them in the share list\. A guest’s upload/);
  });

  it("names a guest's upload after the guest, never after the owner", () => {
    const named = discardWording({ username: 'olivia', received: { name: 'Dana' } }, false);
    expect(named.title).toBe('Discard “Dana”’s upload?');
    expect(named.title).not.toContain('olivia');
    expect(named.text).toMatch(/A guest started this upload through your file request/);
    expect(discardWording({ username: 'olivia', received: { name: ' ' } }, false).title).toBe('Discard a guest’s upload?');
    expect(discardWording({ username: 'olivia', received: { name: 'x'.repeat(60) } }, false).title).toBe(`Discard “${'x'.repeat(39)}…”’s upload?`);
  });

  it("words the member's own and another member's uploads as before", () => {
    expect(discardWording({ username: 'me', received: null }, true)).toMatchObject({ button: 'Discard', title: 'Discard this upload?' });
    expect(discardWording({ username: 'bob', received: null }, false)).toMatchObject({ button: 'Abort upload', title: 'Abort bob’s upload?' });
  });
});
