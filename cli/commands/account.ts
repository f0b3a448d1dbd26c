import { defineCommand, UsageError } from '../command';
import { forgetCredentials } from '../credentials';
import { ask } from '../prompt';

export default defineCommand({
  name: 'account',
  summary: 'Delete your account and every share (`htmls account delete`)',
  args: 'delete',
  signedIn: true,
  options: {
    yes: { type: 'boolean', description: 'Do not ask for confirmation' },
  },
  async run({ args, options: o, client, creds, out }) {
    if (args[0] !== 'delete') throw new UsageError('Usage: htmls account delete [--yes]');
    if (!o.yes) {
      const typed = await ask(`Type your username (${creds.username}) to delete the account and every share: `);
      if (typed.trim() !== creds.username) throw new UsageError('Not deleted.');
    }
    await client.deleteAccount();
    await forgetCredentials(creds);
    out('Account deleted.', { ok: true });
  },
});
