import 'server-only';
/** Parts that make a long token guessable anyway (case-insensitive substrings). */
const WEAK_PARTS = ['password', 'passw0rd', 'changeme', 'change-me', 'letmein', 'qwerty', 'azerty', '123456', 'abcdef', 'iloveyou', 'welcome'];

/** Whole values (letters and digits only, lower case) that wordlists try first. */
const WEAK_VALUES = new Set(['adminadminadminadmin', 'administrator123', 'htmlsadmintoken', 'supersecrettoken', 'mysecretadmintoken', 'thisisasecret', 'correcthorsebatterystaple']);

/** Why a token is easy to guess, or null: a known weak value, a wordlist part, few distinct characters. */
export function weakTokenReason(token: string): string | null {
  const lower = token.toLowerCase();
  if (WEAK_VALUES.has(lower.replace(/[^a-z0-9]/g, ''))) return 'it is a well-known value';
  const part = WEAK_PARTS.find((w) => lower.includes(w));
  if (part) return `it contains "${part}"`;
  if (new Set(lower).size < 8) return 'it has fewer than 8 different characters';
  return null;
}
