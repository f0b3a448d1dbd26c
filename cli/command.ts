/**
 * A command declares what it is: name, one-line summary, arguments, options with their help
 * text. `--help` and the usage errors are printed from this metadata; the parser is
 * node:util's parseArgs, strict, fed with the same declaration.
 */
import type { HtmlsClient } from '../lib/client/node/sdk';
import type { SignedIn } from './credentials';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  /** The value's placeholder in the help, e.g. NAME. */
  value?: string;
  description: string;
}

export type Options = Record<string, OptionSpec>;

export type OptionValues<O extends Options> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? string : boolean;
};

export interface Context<O extends Options> {
  /** Positional arguments after the command name. */
  args: string[];
  options: OptionValues<O>;
  json: boolean;
  /** Prints the human line, or the data as one JSON document with --json. */
  out(human: string, data: unknown): void;
}

export interface SignedInContext<O extends Options> extends Context<O> {
  creds: SignedIn;
  client: HtmlsClient;
}

interface Base<O extends Options> {
  name: string;
  summary: string;
  /** Arguments after the name, as shown in the help: `<id>`, `<files or folders…>`. */
  args?: string;
  options: O;
  /** Longer help text, printed under the usage. */
  details?: string;
}

export type Command<O extends Options = Options> =
  | (Base<O> & { signedIn: false; run(ctx: Context<O>): Promise<void> })
  | (Base<O> & { signedIn: true; run(ctx: SignedInContext<O>): Promise<void> });

/** Keeps the option types of each command while the list holds them all. */
export const defineCommand = <O extends Options>(c: Command<O>): Command<O> => c;

/** Options every command takes. */
export const COMMON_OPTIONS = {
  json: { type: 'boolean', description: 'Print one JSON document on stdout (errors too: {"error","code"})' },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const satisfies Options;

// The CLI's two errors live in errors.ts (credentials.ts throws one, and this module names its types).
export { Cancelled, UsageError } from './errors';
