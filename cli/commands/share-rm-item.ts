import { defineCommand, UsageError } from '../command';

export default defineCommand({
  name: 'share-rm-item',
  summary: 'Remove one file from a share (guests stop seeing it at once)',
  args: '<id> <path>',
  details: 'The path is the file\'s path in the share, as the share page lists it (folder/name.ext).\nA share\'s only file cannot be removed: delete the share with share-rm instead.',
  signedIn: true,
  options: {},
  async run({ args, client, out }) {
    if (args.length !== 2) throw new UsageError('Give the share id and the path of the file to remove');
    const [id, path] = args;
    await client.deleteShareItem(id, path);
    out(`Removed ${path} from ${id}.`, { ok: true, id, path });
  },
});
