import { defineCommand, UsageError } from '../command';

export default defineCommand({
  name: 'share-rm',
  summary: 'Delete a share and its files',
  args: '<id>',
  signedIn: true,
  options: {},
  async run({ args, client, out }) {
    if (!args[0]) throw new UsageError('Give the share id');
    await client.deleteShare(args[0]);
    out(`Deleted ${args[0]}.`, { ok: true, id: args[0] });
  },
});
