import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with npm start
import { buildEnv, buildMessage } from '../scripts/build-hash.mjs';

describe('npm start: the build step', () => {
  it('says a first build is a first build, not "sources changed since the last build"', () => {
    expect(buildMessage({ built: false, force: false })).toMatch(/^building the app for its first start/);
    expect(buildMessage({ built: false, force: false })).not.toMatch(/since the last build/);
    expect(buildMessage({ built: true, force: false })).toBe('rebuilding (sources changed since the last build)…');
  });

  it("runs next build with Next's telemetry off (no banner, nothing sent) unless the operator turned it on", () => {
    expect(buildEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' });
    expect(buildEnv({ NEXT_TELEMETRY_DISABLED: '0' }).NEXT_TELEMETRY_DISABLED).toBe('0');
  });
});
