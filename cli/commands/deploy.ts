import { formatBytes } from '../../lib/client/format';
import { defineCommand, UsageError } from '../command';
import { reportSkipped } from '../format-args';
import { INCLUDE_DOTFILES } from './shared-options';

export default defineCommand({
  name: 'deploy',
  summary: 'Publish a folder (or a .zip) as a hosted site under /p/<slug>/',
  args: '<folder or site.zip>',
  signedIn: true,
  options: {
    slug: { type: 'string', value: 'NAME', description: "The site's name in its address (default: from the folder)" },
    note: { type: 'string', value: 'TEXT', description: 'A note for this deploy' },
    password: { type: 'string', value: 'P', description: 'Ask visitors for this password' },
    append: { type: 'boolean', description: "Add these files to the live site, keeping its others" },
    replace: { type: 'boolean', description: 'A new version of an existing site (the old one stays in the history)' },
    spa: { type: 'boolean', description: 'Single-page app: unknown paths serve index.html' },
    ...INCLUDE_DOTFILES,
  },
  async run({ args, options: o, client, creds, out }) {
    if (!args[0]) throw new UsageError('Give the folder (or .zip) to deploy');
    const { project, warnings } = await client.deployHosted(args[0], {
      slug: o.slug,
      note: o.note,
      password: o.password,
      append: o.append,
      replace: o.replace,
      spa: o.spa,
      includeDotfiles: o['include-dotfiles'],
      onSkipped: reportSkipped,
    });
    // Warnings go to stderr, as the left-out paths do: stdout stays the link (or the JSON).
    for (const w of warnings) process.stderr.write(`Warning: ${w.message}\n`);
    out(`${creds.url}${project.url}/  (${project.file_count} files, ${formatBytes(project.total_bytes)})`, { ...project, link: `${creds.url}${project.url}/`, warnings });
  },
});
