/**
 * Secrets come from the environment or a hidden prompt (@inquirer/password), never from an
 * argument (shell history, `ps`). The prompt writes to stderr so stdout stays clean for
 * --json; Ctrl-C at a prompt restores the terminal and exits 130.
 */
import { createInterface } from 'node:readline/promises';
import { Cancelled, UsageError } from './command';

const isExit = (e: unknown) => (e as Error)?.name === 'ExitPromptError' || (e as Error)?.name === 'AbortPromptError';

export async function secret(envName: string, message: string): Promise<string> {
  const fromEnv = process.env[envName];
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new UsageError(`Set ${envName} or run in a terminal to type it`);
  const { default: password } = await import('@inquirer/password');
  try {
    return await password({ message, mask: false }, { output: process.stderr });
  } catch (e) {
    if (isExit(e)) throw new Cancelled();
    throw e;
  }
}

/** A visible answer (a confirmation); Ctrl-C cancels. */
export async function ask(question: string): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError('Run in a terminal to answer, or pass --yes');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const cancel = new AbortController();
  rl.once('SIGINT', () => cancel.abort());
  try {
    return await rl.question(question, { signal: cancel.signal });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw new Cancelled();
    throw e;
  } finally {
    rl.close();
  }
}
