import { defineCommand } from '../command';
import { requestLine } from './request-options';

export default defineCommand({
  name: 'requests',
  summary: 'List your file requests (newest first) with what they received and their link',
  signedIn: true,
  options: {
    all: { type: 'boolean', description: 'Every request, not only the newest 50 (fetched page by page)' },
    search: { type: 'string', value: 'TEXT', description: 'Only requests whose note or id contains TEXT' },
  },
  async run({ client, creds, json, out, options }) {
    const query = { q: options.search };
    const requests = [];
    let more = false;
    if (options.all) {
      for await (const page of client.requestPages(query)) requests.push(...page);
    } else {
      const page = await client.listRequests(query);
      requests.push(...page.requests);
      more = page.next_cursor !== null;
    }
    if (json) return out('', requests);
    if (requests.length === 0) return console.log(options.search ? `No requests match "${options.search}".` : 'No file requests. Make one: htmls request create');
    for (const r of requests) console.log(requestLine(r, creds.url));
    if (more) console.log('More requests exist: htmls requests --all lists every one.');
  },
});
