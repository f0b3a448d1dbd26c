import { SCOPES } from '../../lib/contract/scopes';
import { defineCommand, UsageError } from '../command';
import { parseExpiry } from '../format-args';

export default defineCommand({
  name: 'token',
  summary: 'Make an access token for scripts and CI (`token create`), or revoke one (`token rm <id>`)',
  args: 'create | rm <id>',
  signedIn: true,
  details: [
    'A token acts as you with only the scopes you give it; its secret (htmls_pat_…) is shown once.',
    'Use it as HTMLS_TOKEN (with HTMLS_URL) instead of a login, or as `Authorization: Bearer …`.',
    `Scopes: ${SCOPES.join(', ')}, sites:deploy:<slug> (administrators: one project).`,
    'Example: htmls token create --scope shares:write --expires 90d --name "ShareX on my laptop"',
  ].join('\n'),
  options: {
    scope: { type: 'string', value: 'S[,S…]', description: 'The scopes, comma-separated (create)' },
    expires: { type: 'string', value: 'WHEN', description: 'Expiry: 90d, 24h, 30m or an ISO time (create; default: never)' },
    name: { type: 'string', value: 'NAME', description: 'What the token is for (create; default: "htmls CLI")' },
  },
  async run({ args, options: o, client, out }) {
    const [action, id] = args;
    if (action === 'create') {
      const scopes = (o.scope ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (scopes.length === 0) throw new UsageError('Give the token its scopes: --scope shares:write (comma-separated for more)');
      const made = await client.createToken({ name: o.name ?? 'htmls CLI', scopes, expires_at: o.expires ? parseExpiry(o.expires) : null });
      return out(
        `${made.secret}\n\nThis is the only time the secret is shown. Token ${made.token.id} (${made.token.scopes.join(', ')}; ${made.token.expires_at ? `expires ${made.token.expires_at}` : 'never expires'}).`,
        made,
      );
    }
    if (action === 'rm') {
      if (!id) throw new UsageError('Give the token id (htmls tokens lists them)');
      await client.deleteToken(id);
      return out(`Revoked ${id}.`, { ok: true, id });
    }
    throw new UsageError('Use `htmls token create --scope …` or `htmls token rm <id>`');
  },
});
