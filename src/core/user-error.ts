/**
 * The base of every error a user can cause and fix (a bad file, option or field): command-line
 * tools print its message alone, as one line, and exit 1, without a stack trace. Errors that are
 * not a UserError are bugs and keep their stack.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A user-facing error of a command-line tool (a bad option, a missing file or program): printed alone, exit 1. */
export class CliError extends UserError {}
