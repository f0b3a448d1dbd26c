import { defineCommand, UsageError } from '../command';

export default defineCommand({
  name: 'request-rm',
  summary: 'Delete a file request (files already received stay in your shares)',
  args: '<id>',
  signedIn: true,
  options: {},
  async run({ args, client, out }) {
    if (!args[0] || args.length > 1) throw new UsageError('Give one request id');
    await client.deleteRequest(args[0]);
    out(`Deleted ${args[0]}.`, { ok: true, id: args[0] });
  },
});
