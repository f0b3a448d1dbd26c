import { defineCommand } from '../command';

export default defineCommand({
  name: 'tokens',
  summary: 'List your access tokens: prefix, name, scopes, expiry and last use (never the secrets)',
  signedIn: true,
  options: {},
  async run({ client, json, out }) {
    const tokens = await client.listTokens();
    if (json) return out('', tokens);
    if (tokens.length === 0) return console.log('No access tokens. Make one with `htmls token create --scope shares:write`.');
    for (const t of tokens) {
      const used = t.last_used_at ? `used ${t.last_used_at} from ${t.last_used_ip}` : 'never used';
      console.log(`${t.id}  ${t.prefix}…  ${t.name}  [${t.scopes.join(', ')}]  ${t.expires_at ? `expires ${t.expires_at}` : 'no expiry'}  ${used}`);
    }
  },
});
