import { defineCommand } from '../command';
import { forgetCredentials } from '../credentials';

export default defineCommand({
  name: 'logout',
  summary: 'End the session on the server and forget it here (--all: every other session of the account too)',
  signedIn: true,
  options: {
    all: { type: 'boolean', description: 'Also end every other session of this account (other browsers, devices, CLIs)' },
  },
  async run({ client, creds, out, options: o }) {
    // Every other session first, while this one still works; then this one.
    if (o.all) await client.endOtherSessions();
    if (creds.store === 'env') return out('HTMLS_TOKEN is set: unset it to stop using it (revoke it with `htmls token rm` from a login, or in /files).', { ok: true });
    await client.logout().catch(() => {});
    await forgetCredentials(creds);
    out('Signed out.', { ok: true });
  },
});
