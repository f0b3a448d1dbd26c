import { formatBytes } from '../../lib/client/format';
import { defineCommand, UsageError } from '../command';
import { guestPassword, reportSkipped, requirePaths } from '../format-args';
import { GUEST_PASSWORD, INCLUDE_DOTFILES } from './shared-options';

export default defineCommand({
  name: 'deploy',
  summary: 'Publish a folder (or a .zip) as a hosted site under /p/<slug>/',
  args: '<folder or site.zip>',
  signedIn: true,
  options: {
    slug: { type: 'string', value: 'NAME', description: "The site's name in its address (default: a random name, printed with the link)" },
    note: { type: 'string', value: 'TEXT', description: 'A note for this deploy' },
    ...GUEST_PASSWORD('visitors'),
    append: { type: 'boolean', description: "Add these files to the live site, keeping its others" },
    replace: { type: 'boolean', description: 'A new version of an existing site (the old one stays in the history)' },
    spa: { type: 'boolean', description: 'Single-page app: unknown paths serve index.html' },
    ...INCLUDE_DOTFILES,
  },
  async run({ args, options: o, client, creds, out }) {
    if (!args[0]) throw new UsageError('Give the folder (or .zip) to deploy');
    if (args.length > 1) throw new UsageError(`Deploy one folder or .zip at a time (got ${args.join(', ')})`);
    requirePaths(args);
    const password = await guestPassword(o);
    const { project, warnings } = await client.deployHosted(args[0], {
      slug: o.slug,
      note: o.note,
      password,
      append: o.append,
      replace: o.replace,
      spa: o.spa,
      includeDotfiles: o['include-dotfiles'],
      onSkipped: reportSkipped,
    });
    // Warnings go to stderr, as the left-out paths do: stdout stays the link (or the JSON).
    for (const w of warnings) process.stderr.write(`Warning: ${w.message}\n`);
    const link = `${creds.url}${project.url}/`;
    out(
      `${link}  (${project.file_count} ${project.file_count === 1 ? 'file' : 'files'}, ${formatBytes(project.total_bytes)})${o['generate-password'] ? `\npassword: ${password}` : ''}`,
      { ...project, link, warnings, ...(o['generate-password'] ? { password } : {}) },
    );
  },
});
