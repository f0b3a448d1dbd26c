/**
 * `_redirects` and `_headers` at a project's root, in Netlify's and Cloudflare Pages' syntax
 * (API.md "Hosted projects"). Parsed and checked once at upload (parseSiteRules: a malformed
 * line refuses the upload, naming the file and line), stored on the deploy row in that parsed
 * form, compiled once per loaded deploy (compileSiteRules, kept with the site in the site
 * cache) and matched per request (lib/hosting/resolve-path.ts, lib/http/guest/serve-hosted.ts).
 * Nothing here parses per request.
 */
import { AppError } from '../errors';

/** The two files, at the project's root. They are never served. */
export const REDIRECTS_FILE = '_redirects';
export const HEADERS_FILE = '_headers';
export const RULE_FILES: readonly string[] = [REDIRECTS_FILE, HEADERS_FILE];

export const RULE_LIMITS = { redirects: 2000, headerBlocks: 100, fileBytes: 1024 * 1024, lineChars: 4096 };

export type RedirectStatus = 200 | 301 | 302 | 307 | 308 | 404;

/** One `_redirects` line, as stored on the deploy. */
export interface RedirectRule {
  from: string;
  to: string;
  status: RedirectStatus;
  /** `!` after the status (Netlify's force): the rule applies even where a file exists. */
  force?: boolean;
}

/** One `_headers` block: a path pattern and the headers added to matching responses. */
export interface HeaderBlock {
  path: string;
  headers: [string, string][];
}

/** What a deploy carries: null for a file the deploy does not have. */
export interface SiteRules {
  redirects: RedirectRule[] | null;
  headers: HeaderBlock[] | null;
}

const STATUSES = new Set([200, 301, 302, 307, 308, 404]);
/** Headers that would break the response or its framing, or our caching of it: ignored. */
const IGNORED_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'set-cookie', 'connection', 'keep-alive', 'upgrade', 'trailer', 'te', 'etag', 'content-range']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PLACEHOLDER = /^:[A-Za-z_][A-Za-z0-9_]*$/;
const ABSOLUTE = /^https?:\/\/[^/\s]+/i;

const invalid = (file: string, line: number, why: string) =>
  new AppError('invalid_site_rules', `${file} line ${line}: ${why}`, {}, { file, line });

/** A path pattern (`/blog/:year/*`): absolute path, `*` only at the end, `:name` whole segments. */
function checkPattern(pattern: string, file: string, line: number): void {
  if (!pattern.startsWith('/') || pattern.startsWith('//')) throw invalid(file, line, `"${pattern}" must be a path starting with "/"`);
  if (/[\u0000-\u001f\u007f\\]/.test(pattern)) throw invalid(file, line, `"${pattern}" has a control character or a backslash`);
  const star = pattern.indexOf('*');
  if (star >= 0 && star !== pattern.length - 1) throw invalid(file, line, `"${pattern}": "*" may only end a path`);
  for (const segment of pattern.slice(1).split('/')) {
    if (segment === '.' || segment === '..') throw invalid(file, line, `"${pattern}" has a "${segment}" segment`);
    if (segment.startsWith(':') && !PLACEHOLDER.test(segment)) throw invalid(file, line, `"${segment}" is not a placeholder (":name")`);
  }
}

function checkSize(text: string, file: string): void {
  if (Buffer.byteLength(text) > RULE_LIMITS.fileBytes) throw invalid(file, 1, `the file is larger than ${RULE_LIMITS.fileBytes} bytes`);
}

const lines = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/);

export function parseRedirects(text: string, file = REDIRECTS_FILE): RedirectRule[] {
  checkSize(text, file);
  const rules: RedirectRule[] = [];
  lines(text).forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.length > RULE_LIMITS.lineChars) throw invalid(file, n, `the line is longer than ${RULE_LIMITS.lineChars} characters`);
    const tokens = line.split(/\s+/);
    if (tokens.length < 2) throw invalid(file, n, 'expected "from to [status]"');
    if (tokens.length > 3) throw invalid(file, n, 'expected "from to [status]" (conditions are not supported)');
    const [from, to, statusText = '301'] = tokens;
    checkPattern(from, file, n);
    const m = /^(\d{3})(!?)$/.exec(statusText);
    const status = m ? Number(m[1]) : NaN;
    if (!m || !STATUSES.has(status)) throw invalid(file, n, `"${statusText}" is not one of 301, 302, 307, 308, 200, 404`);
    const absolute = ABSOLUTE.test(to);
    if (!absolute && (!to.startsWith('/') || to.startsWith('//'))) throw invalid(file, n, `"${to}" must be a path starting with "/" or an http(s) URL`);
    if (/[\u0000-\u001f\u007f\\]/.test(to)) throw invalid(file, n, `"${to}" has a control character or a backslash`);
    if (absolute && (status === 200 || status === 404)) throw invalid(file, n, `a ${status} rule serves a file of this site: "${to}" cannot be rewritten to, only redirected to`);
    if (!absolute && to.split(/[?#]/)[0].split('/').some((s) => s === '.' || s === '..')) throw invalid(file, n, `"${to}" has a "." or ".." segment`);
    if (rules.length >= RULE_LIMITS.redirects) throw invalid(file, n, `at most ${RULE_LIMITS.redirects} rules`);
    rules.push({ from, to, status: status as RedirectStatus, ...(m[2] ? { force: true } : {}) });
  });
  return rules;
}

export function parseHeaders(text: string, file = HEADERS_FILE): HeaderBlock[] {
  checkSize(text, file);
  const blocks: HeaderBlock[] = [];
  let current: HeaderBlock | null = null;
  lines(text).forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.length > RULE_LIMITS.lineChars) throw invalid(file, n, `the line is longer than ${RULE_LIMITS.lineChars} characters`);
    if (!/^\s/.test(raw)) {
      if (/\s/.test(line)) throw invalid(file, n, `expected a path pattern alone on its line, or an indented "Name: value"`);
      checkPattern(line, file, n);
      if (blocks.length >= RULE_LIMITS.headerBlocks) throw invalid(file, n, `at most ${RULE_LIMITS.headerBlocks} header blocks`);
      current = { path: line, headers: [] };
      blocks.push(current);
      return;
    }
    if (!current) throw invalid(file, n, 'a header before any path pattern');
    const colon = line.indexOf(':');
    if (colon <= 0) throw invalid(file, n, 'expected "Name: value"');
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!TOKEN.test(name)) throw invalid(file, n, `"${name}" is not a header name`);
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) throw invalid(file, n, 'the value has a control character');
    if (IGNORED_HEADERS.has(name.toLowerCase())) return;
    (current as HeaderBlock).headers.push([name, value]);
  });
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Compiled once per loaded deploy.

interface Matcher {
  /** The pattern's regular expression over a path without its trailing slash; null for a literal. */
  re: RegExp | null;
  literal: string;
  names: string[];
  splat: boolean;
}

/** Paths match without their trailing slash (`/about` and `/about/` alike), as on Netlify. */
const trimSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

function compilePattern(pattern: string): Matcher {
  const path = trimSlash(pattern);
  if (!path.includes('*') && !path.includes('/:')) return { re: null, literal: path, names: [], splat: false };
  const names: string[] = [];
  let splat = false;
  let source = '';
  const segments = path.slice(1).split('/');
  segments.forEach((segment, i) => {
    if (segment === '*' && i === segments.length - 1) {
      splat = true;
      // `/docs/*` matches `/docs` itself too, with an empty splat.
      source += i === 0 ? '/(.*)' : '(?:/(.*))?';
      return;
    }
    if (PLACEHOLDER.test(segment)) {
      names.push(segment.slice(1));
      source += '/([^/]+)';
      return;
    }
    const star = segment.endsWith('*') && i === segments.length - 1;
    const lit = star ? segment.slice(0, -1) : segment;
    source += '/' + lit.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (star) {
      splat = true;
      source += '(.*)';
    }
  });
  return { re: new RegExp(`^${source}$`), literal: path, names, splat };
}

/** Bound values of a match, or null: `splat` and every `:name`. */
function matchPath(m: Matcher, path: string): Record<string, string> | null {
  if (!m.re) return path === m.literal ? {} : null;
  const r = m.re.exec(path);
  if (!r) return null;
  const bound: Record<string, string> = {};
  m.names.forEach((name, i) => (bound[name] = r[i + 1]));
  if (m.splat) bound.splat = r[m.names.length + 1] ?? '';
  return bound;
}

export interface CompiledRedirect extends RedirectRule {
  absolute: boolean;
}

export interface RedirectMatch {
  rule: CompiledRedirect;
  /** `to` with its placeholders filled, each value encoded as a URL path (splat) or segment. */
  target: string;
  /** The same with values as they are (decoded): the relative path a rewrite looks up. */
  targetPath: string;
}

export interface CompiledRules {
  /** The first rule matching `path` (decoded, with a leading "/"): forced ones only when `exists`. */
  redirect(path: string, exists: boolean): RedirectMatch | null;
  /** Headers of every block matching `path`, in file order (a repeated name joined with ", "). */
  headersFor(path: string): [string, string][];
  hasRedirects: boolean;
  hasHeaders: boolean;
}

/** Fills `:name` and `:splat` in `to`; `encode` says how a bound value is written. */
function fill(to: string, bound: Record<string, string>, encode: boolean): string {
  return to.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (all, name: string) => {
    const v = bound[name];
    if (v === undefined) return all;
    if (!encode) return v;
    return name === 'splat' ? v.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(v);
  });
}

export function compileSiteRules(rules: SiteRules | null | undefined): CompiledRules | null {
  const redirects = rules?.redirects ?? [];
  const headers = rules?.headers ?? [];
  if (redirects.length === 0 && headers.length === 0) return null;
  // Literal `from`s by path (the first of each), patterns in order: a miss costs one Map
  // lookup plus the patterns before the first literal match.
  const literals = new Map<string, number>();
  const patterns: { i: number; m: Matcher }[] = [];
  const compiled = redirects.map((r) => ({ ...r, absolute: ABSOLUTE.test(r.to) }));
  const matchers = redirects.map((r) => compilePattern(r.from));
  matchers.forEach((m, i) => {
    if (m.re) patterns.push({ i, m });
    else if (!literals.has(m.literal)) literals.set(m.literal, i);
  });
  const blocks = headers.map((b) => ({ m: compilePattern(b.path), headers: b.headers }));
  const hit = (i: number, bound: Record<string, string>): RedirectMatch => {
    const rule = compiled[i];
    return { rule, target: fill(rule.to, bound, true), targetPath: fill(rule.to.split(/[?#]/)[0], bound, false) };
  };
  return {
    hasRedirects: redirects.length > 0,
    hasHeaders: blocks.length > 0,
    redirect(rawPath, exists) {
      if (redirects.length === 0) return null;
      const path = trimSlash(rawPath);
      if (!exists) {
        const lit = literals.get(path) ?? Infinity;
        for (const { i, m } of patterns) {
          if (i > lit) break;
          const bound = matchPath(m, path);
          if (bound) return hit(i, bound);
        }
        return lit === Infinity ? null : hit(lit, {});
      }
      for (let i = 0; i < compiled.length; i++) {
        if (!compiled[i].force) continue;
        const bound = matchPath(matchers[i], path);
        if (bound) return hit(i, bound);
      }
      return null;
    },
    headersFor(rawPath) {
      const path = trimSlash(rawPath);
      const out: [string, string][] = [];
      for (const b of blocks) {
        if (!matchPath(b.m, path)) continue;
        for (const [name, value] of b.headers) {
          const had = out.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
          if (had >= 0) out[had] = [out[had][0], `${out[had][1]}, ${value}`];
          else out.push([name, value]);
        }
      }
      return out;
    },
  };
}
