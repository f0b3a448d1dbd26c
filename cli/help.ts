/** Help text from the commands' declarations (never from source code). */
import { COMMON_OPTIONS, type Command, type OptionSpec } from './command';

const flag = (name: string, o: OptionSpec) => `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;

function usageLine(c: Command): string {
  return `htmls ${c.name}${c.args ? ` ${c.args}` : ''}${Object.keys(c.options).length ? ' [options]' : ''}`;
}

export function commandHelp(c: Command): string {
  const options = Object.entries({ ...c.options, ...COMMON_OPTIONS }) as [string, OptionSpec][];
  const width = Math.max(...options.map(([n, o]) => flag(n, o).length));
  return [
    `${usageLine(c)}`,
    '',
    c.summary,
    ...(c.details ? ['', c.details] : []),
    '',
    'Options:',
    ...options.map(([n, o]) => `  ${flag(n, o).padEnd(width)}  ${o.description}`),
  ].join('\n');
}

export function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'htmls — share files and publish sites on an htmls server',
    '',
    'Usage: htmls <command> [arguments] [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `htmls <command> --help` for a command\'s options, `htmls --version` for the version.',
    'Exit codes: 0 done, 1 refused or failed, 2 usage error, 3 not signed in, 130 cancelled.',
  ].join('\n');
}
