/**
 * A host name that is not loopback, resolved to the test server by the browser alone: the
 * console reached as a LAN or server name is, where sites share one hosted origin (reached as
 * 127.0.0.1 or localhost, every project has `<slug>.localhost`).
 */
export const SHARED_NAME = 'htmls.test';

/** Debian's Chromium and the flags every browser in the suite runs with (Playwright, Lighthouse). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  `--host-resolver-rules=MAP ${SHARED_NAME} 127.0.0.1`,
];
