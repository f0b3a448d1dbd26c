/**
 * htmls — the command-line client. Each command is one file in cli/commands/ and speaks the
 * HTTP contract through the Node SDK (lib/client/node/sdk.ts). bin/htmls.mjs runs this file.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ApiError, HtmlsClient } from '../lib/client/node/sdk';
import { Cancelled, COMMON_OPTIONS, UsageError, type Command, type Context, type Options } from './command';
import { COMMANDS } from './commands';
import { loadCredentials } from './credentials';
import { commandHelp, overview } from './help';
import { explain } from './messages';
import { VERSION } from './version';

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

function parse(command: Command, argv: string[]) {
  const declared: Options = { ...command.options, ...COMMON_OPTIONS };
  const options = Object.fromEntries(Object.entries(declared).map(([n, o]) => [n, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new UsageError(`${optionProblem(command, declared, e as Error & { code?: string })}\nRun \`htmls ${command.name} --help\` for its options.`);
  }
  refuseSecretArguments(command, declared, parsed.tokens);
  return parsed;
}

/** node:util's parser text ("To specify a positional argument starting with a '-'…") said for a person. */
function optionProblem(command: Command, declared: Options, e: Error & { code?: string }): string {
  const typed = /'(-[^' ,]+)/.exec(e.message)?.[1].replace(/^-+/, '') ?? '';
  const name = declared[typed] ? typed : (Object.entries(declared).find(([, o]) => o.short === typed)?.[0] ?? typed);
  const spec = declared[name];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const near = closest(typed, Object.keys(declared));
      return `htmls ${command.name} has no option ${typed.length === 1 ? '-' : '--'}${typed}${near ? ` (did you mean --${near}?)` : ''}.`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (spec?.type === 'boolean') return `--${name} takes no value${SECRET.has(name) ? `: ${SECRET_HINT}` : ''}.`;
      return `--${name} needs a value: --${name} ${spec?.value ?? 'VALUE'}.`;
    default:
      return e.message;
  }
}

/** Options that set a secret: a flag, the secret itself comes from the environment or a prompt. */
const SECRET = new Set(['password']);
const SECRET_HINT = 'type the password at the prompt it shows, or set HTMLS_GUEST_PASSWORD (a secret in an argument ends up in shell history and `ps`)';

/** `--password hunter2`: the word after the flag is not a path, so it was meant as the secret. */
function refuseSecretArguments(command: Command, declared: Options, tokens: ReturnType<typeof parseArgs>['tokens'] = []) {
  const positionals = tokens.filter((t) => t.kind === 'positional').length;
  tokens.forEach((t, i) => {
    const next = tokens[i + 1];
    if (t.kind !== 'option' || !SECRET.has(t.name) || declared[t.name]?.type !== 'boolean' || next?.kind !== 'positional') return;
    // share-set takes one id; share and deploy take paths, and a secret is no path here.
    if (command.name === 'share-set' ? positionals > 1 : !existsSync(next.value)) throw new UsageError(`--${t.name} takes no value: ${SECRET_HINT}.`);
  });
}

/** The declared name nearest to a mistyped one (at most two edits away). */
function closest(typed: string, names: string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length];
  };
  const best = names.map((n) => ({ n, d: distance(typed, n) })).sort((x, y) => x.d - y.d)[0];
  return best && best.d <= Math.min(2, Math.floor(typed.length / 2)) ? best.n : undefined;
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(`htmls ${VERSION}`);
    return;
  }
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
  try {
    return await command.run({ ...ctx, creds, client: new HtmlsClient({ baseUrl: creds.url, token: creds.token }) });
  } catch (e) {
    // A refused HTMLS_TOKEN is no missing login: say which secret the server turned down.
    if (creds.store === 'env' && e instanceof ApiError && e.code === 'unauthenticated') {
      throw new ApiError(401, 'token_refused', `The server refused the access token in HTMLS_TOKEN (revoked, expired or mistyped): make a new one in /files or with \`htmls token\`, or unset HTMLS_TOKEN to use \`htmls login\`.`);
    }
    throw e;
  }
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
