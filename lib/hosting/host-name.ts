/**
 * Host names as a Host header or a custom domain gives them: the service's origin rules
 * (lib/http/origin.ts) and the custom domains (./domains.ts) read them alike. No imports.
 */
/** The host name of a Host header (no port), or null when it is not one. */
export function hostnameOf(host: string | undefined): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname || null;
  } catch {
    return null;
  }
}

/**
 * The canonical name of a Host header as custom domains are kept (lib/hosting/domains.ts):
 * lower case, punycode, no port, no trailing dot; null when it is not one.
 */
export function canonicalHostName(host: string | undefined): string | null {
  if (!host) return null;
  // The usual Host (ASCII name, optional port) without a URL parse: it runs on every request.
  const plain = PLAIN_HOST.exec(host);
  if (plain) return plain[1].toLowerCase();
  return hostnameOf(host)?.replace(/\.$/, '') || null;
}
const PLAIN_HOST = /^([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)\.?(?::\d{1,5})?$/;
