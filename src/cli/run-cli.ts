/**
 * The entry wrapper of every command-line tool (src/cli and the bench scripts), kept apart from the
 * browser harness so that tools that never start a browser do not load Vite and Playwright.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from 'commander';
import { UserError } from '../core/user-error';

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the script Node was started with
 * (`tsx src/cli/X.ts`), so a tool's module can be imported for its `program` (the CLI reference
 * generator, tests) without running it.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  return real(resolve(entry)) === real(fileURLToPath(moduleUrl));
}

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
