import { NextResponse, type NextRequest } from 'next/server';
import { server } from './lib/http/next-link';

/**
 * Redirects /admin to /htmls and gives our server-rendered pages a per-request CSP nonce.
 * Nothing else: auth is decided in the routes, and the matcher keeps /api and every upload
 * path out (a proxy caps and buffers request bodies).
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (pathname === '/admin' || pathname.startsWith('/admin/')) {
    return NextResponse.redirect(new URL('/htmls', request.url));
  }
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = server().csp(nonce, process.env.NODE_ENV === 'development');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set('Content-Security-Policy', csp);
  return res;
}

export const config = {
  matcher: ['/', '/admin', '/admin/:path*', '/htmls', '/htmls/:path*', '/files', '/cli-login', '/f/:id', '/r/:id'],
};
