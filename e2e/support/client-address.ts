import { randomInt } from 'node:crypto';

/**
 * A client address of its own for one spec file: the test server trusts X-Forwarded-For
 * (TRUST_PROXY=1), so rate limits counted per address (logins, failed Bearers, registrations)
 * stay within the file that spends them instead of adding up on 127.0.0.1 across the suite.
 */
export const ownClientAddress = () => ({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
