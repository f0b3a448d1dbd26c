import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './deliver';
import { refusedAddress, resolveDestination } from './ssrf';

describe('refusedAddress', () => {
  it.each([
    ['127.0.0.1'], ['127.5.6.7'], ['10.1.2.3'], ['172.16.0.1'], ['172.31.255.255'], ['192.168.1.1'], ['100.64.0.1'],
    ['::1'], ['fc00::1'], ['fd12:3456::1'],
    ['::ffff:127.0.0.1'], ['::ffff:7f00:1'], ['::ffff:10.0.0.1'], ['::127.0.0.1'], ['64:ff9b::7f00:1'], ['2002:7f00:1::'],
  ])('refuses the private or loopback address %s, unless WEBHOOK_ALLOW_PRIVATE', (ip) => {
    expect(refusedAddress(ip, false)).toMatch(/private/);
    expect(refusedAddress(ip, true)).toBeNull();
  });

  it.each([['169.254.169.254'], ['169.254.0.1'], ['0.0.0.0'], ['0.1.2.3'], ['::'], ['fe80::1'], ['::ffff:169.254.169.254'], ['::ffff:0.0.0.0'], ['fd00:ec2::254'], ['224.0.0.1'], ['255.255.255.255']])(
    'always refuses the link-local, unspecified or reserved address %s',
    (ip) => {
      expect(refusedAddress(ip, true)).toMatch(/link-local/);
    },
  );

  // Issue 39, item 9: forms the hand-written patterns missed (SIIT, local-use NAT64, site-local).
  it.each([['::ffff:0:127.0.0.1'], ['::ffff:0:7f00:1'], ['64:ff9b:1::7f00:1'], ['64:ff9b:1::a00:1'], ['64:ff9b:1:2::1']])(
    'refuses the translated or local-use address %s as private',
    (ip) => {
      expect(refusedAddress(ip, false)).toMatch(/private/);
    },
  );

  it.each([['fec0::1'], ['feff::1'], ['2001:db8::1'], ['2001::1'], ['100::1'], ['4000::1'], ['::ffff:0:169.254.169.254'], ['192.0.2.1'], ['198.51.100.7']])(
    'always refuses %s, which is not global unicast',
    (ip) => {
      expect(refusedAddress(ip, true)).toMatch(/not global unicast/);
    },
  );

  it.each([['93.184.216.34'], ['1.1.1.1'], ['2606:4700:4700::1111'], ['::ffff:8.8.8.8'], ['172.32.0.1']])('allows the public address %s', (ip) => {
    expect(refusedAddress(ip, false)).toBeNull();
  });
});

describe('resolveDestination', () => {
  it('refuses a name that resolves to 127.0.0.1 (localhost, from the system resolver)', async () => {
    await expect(resolveDestination(new URL('http://localhost:9/x'), false)).rejects.toMatchObject({ code: 'webhook_url_not_allowed' });
  });

  it('refuses a name when any of its addresses is refused, and bracketed IPv6 literals', async () => {
    const lookup = async () => [{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.5', family: 4 }];
    await expect(resolveDestination(new URL('https://mixed.example/'), false, lookup)).rejects.toMatchObject({ code: 'webhook_url_not_allowed' });
    await expect(resolveDestination(new URL('http://[::ffff:127.0.0.1]/'), false)).rejects.toMatchObject({ code: 'webhook_url_not_allowed' });
    await expect(resolveDestination(new URL('http://[fe80::1]/'), true)).rejects.toMatchObject({ code: 'webhook_url_not_allowed' });
  });
});

describe('attemptDelivery: the address checked is the address connected to', () => {
  it('a name rebound to 127.0.0.1 at delivery time is refused before any connection; allowed, the socket goes to the pinned address', async () => {
    let hits = 0;
    const server = createServer((req, res) => {
      hits++;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    // The name does not exist in any DNS: only the pinned lookup can send the socket anywhere.
    const rebound = async () => [{ address: '127.0.0.1', family: 4 }];
    const base = { url: `http://rebind.invalid:${port}/hook`, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id: 'evt', body: '{}', lookup: rebound };
    try {
      const refused = await attemptDelivery({ ...base, allowPrivate: false });
      expect(refused).toMatchObject({ ok: false, status: null });
      expect(refused.error).toMatch(/not allowed/);
      expect(hits).toBe(0);
      const sent = await attemptDelivery({ ...base, allowPrivate: true });
      expect(sent).toEqual({ ok: true, status: 204, error: null, body: '', timedOut: false });
      expect(hits).toBe(1);
    } finally {
      server.close();
    }
  });
});
