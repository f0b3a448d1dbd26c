/**
 * htmls — the command-line client. Each command is one file in cli/commands/ and speaks the
 * HTTP contract through the Node SDK (lib/client/node/sdk.ts). bin/htmls.mjs runs this file.
 */
import { parseArgs } from 'node:util';
import { ApiError, HtmlsClient } from '../lib/client/node/sdk';
import { Cancelled, COMMON_OPTIONS, UsageError, type Command, type Context, type Options } from './command';
import { COMMANDS } from './commands';
import { loadCredentials } from './credentials';
import { commandHelp, overview } from './help';
import { explain } from './messages';

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

function parse(command: Command, argv: string[]) {
  const declared: Options = { ...command.options, ...COMMON_OPTIONS };
  const options = Object.fromEntries(Object.entries(declared).map(([n, o]) => [n, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\nRun \`htmls ${command.name} --help\` for its options.`);
  }
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const about = name === 'help' && rest[0] ? findCommand(rest[0]) : undefined;
    console.log(about ? commandHelp(about) : overview(COMMANDS));
    return;
  }
  const command = findCommand(name);
  if (!command) throw new UsageError(`Unknown command "${name}". Run htmls --help`);
  const { values, positionals } = parse(command, rest);
  if (values.help) {
    console.log(commandHelp(command));
    return;
  }
  const json = Boolean(values.json);
  const ctx: Context<typeof command.options> = {
    args: positionals,
    options: values as Context<typeof command.options>['options'],
    json,
    out: (human, data) => console.log(json ? JSON.stringify(data) : human),
  };
  if (!command.signedIn) return command.run(ctx);
  const creds = await loadCredentials();
  // Exit code 3 like a session the server ended: a script can tell "log in first" apart.
  if (!creds) throw new ApiError(401, 'not_signed_in', 'Not signed in: run `htmls login --url URL --username NAME` first, or set HTMLS_TOKEN (an access token) and HTMLS_URL.');
  return command.run({ ...ctx, creds, client: new HtmlsClient({ baseUrl: creds.url, token: creds.token }) });
}

export function exitCode(e: unknown): number {
  if (e instanceof Cancelled) return 130;
  if (e instanceof UsageError) return 2;
  if (e instanceof ApiError && e.status === 401) return 3;
  return 1;
}

export function run(argv: string[]): void {
  main(argv).then(
    () => process.exit(0),
    (e) => {
      if (argv.includes('--json')) console.log(JSON.stringify({ error: explain(e), code: e instanceof ApiError ? e.code : 'cli_error' }));
      else console.error(`htmls: ${explain(e)}`);
      process.exit(exitCode(e));
    },
  );
}
