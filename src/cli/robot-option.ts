/**
 * The `--robot wheeled|dog|humanoid` option of `npm run bench` and `npm run dataset` (the embodiments
 * of src/robot/embodiments.ts), as a commander argument parser.
 */
import { InvalidArgumentError } from 'commander';
import { robotSpec } from '../robot/embodiments';
import type { RobotName } from '../robot/robot-spec';

/** The option's help text. */
export const ROBOT_OPTION_HELP = 'embodiment: wheeled (the four-wheeled delivery robot), dog (quadruped, Unitree Go2-like) or humanoid (Unitree G1-like); src/robot/embodiments.ts';

/**
 * Parses a `--robot` value.
 *
 * @throws InvalidArgumentError naming the accepted values (commander prints it as one `error: …` line).
 */
export function parseRobotOption(value: string): RobotName {
  try {
    return robotSpec(value).name;
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
}
