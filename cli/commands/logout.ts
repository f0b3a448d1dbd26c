import { defineCommand } from '../command';
import { forgetCredentials } from '../credentials';

export default defineCommand({
  name: 'logout',
  summary: 'End the session on the server and forget it here',
  signedIn: true,
  options: {},
  async run({ client, creds, out }) {
    if (creds.store === 'env') return out('HTMLS_TOKEN is set: unset it to stop using it (revoke it with `htmls token rm` from a login, or in /files).', { ok: true });
    await client.logout().catch(() => {});
    await forgetCredentials(creds);
    out('Signed out.', { ok: true });
  },
});
