/**
 * The entry wrapper of every command-line tool (src/cli and the bench scripts), kept apart from the
 * browser harness so that tools that never start a browser do not load Vite and Playwright.
 */
import { InvalidArgumentError } from 'commander';
import { UserError } from '../core/user-error';

/**
 * Runs a CLI main: prints a {@link UserError}'s message (CliError, ScenarioError, SplatFormatError,
 * commander's InvalidArgumentError, …) alone as one line (exit 1), anything else with its stack.
 */
export function runCli(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      if (e instanceof UserError || e instanceof InvalidArgumentError) console.error(`error: ${e.message}`);
      else console.error(e);
      process.exit(1);
    },
  );
}
