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
