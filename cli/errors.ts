/** A mistake in how the command was called: exit code 2. */
export class UsageError extends Error {}

/** The person pressed Ctrl-C at a prompt: exit code 130, like a shell. */
export class Cancelled extends Error {
  constructor() {
    super('Cancelled');
  }
}
