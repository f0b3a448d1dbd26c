import { formatBytes } from '../../lib/client/format';
import { defineCommand, UsageError } from '../command';
import { requirePaths, resumableUploadReporting } from '../format-args';
import { INCLUDE_DOTFILES } from './shared-options';

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

export default defineCommand({
  name: 'share-add',
  summary: 'Add files and folders to one of your shares (guests see them once all have arrived)',
  args: '<id> <files or folders…>',
  details:
    'The link stays the same; a path the share already has is refused (remove it first with\n' +
    'share-rm-item). Large files go up in parts; if the command is interrupted, run it again\n' +
    'with the same files: it resumes, sending only the parts the server lacks.',
  signedIn: true,
  options: { ...INCLUDE_DOTFILES },
  async run({ args, options: o, json, client, creds, out }) {
    if (args.length < 2) throw new UsageError('Give the share id, then the files or folders to add');
    const [id, ...paths] = args;
    requirePaths(paths);
    const { stats, callbacks } = resumableUploadReporting(json);
    let added = 0;
    const share = await client.addToShare(id, paths, {
      includeDotfiles: o['include-dotfiles'],
      ...callbacks,
      onPlan: (plan) => {
        added = plan.files.length;
        callbacks.onPlan(plan);
      },
    });
    if (!json && process.stderr.isTTY) process.stderr.write('\n');
    const link = `${creds.url}${share.url}`;
    out(`${link}\nAdded ${files(added)}: the share now holds ${files(share.file_count)}, ${formatBytes(share.total_bytes)}.`, {
      ...share,
      link,
      added,
      upload: stats,
    });
  },
});
