import { defineCommand } from '../command';
import { forgetCredentials } from '../credentials';

export default defineCommand({
  name: 'logout',
  summary: 'End the session on the server and forget it here',
  signedIn: true,
  options: {},
  async run({ client, creds, out }) {
    await client.logout().catch(() => {});
    await forgetCredentials(creds);
    out('Signed out.', { ok: true });
  },
});
