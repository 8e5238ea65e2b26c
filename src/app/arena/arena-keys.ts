/**
 * The arena page's keys (a human plays with the agents' actions, src/arena/actions.ts): `W` walks
 * forward SMALL (1 s), `Shift+W` LARGE (5 s); `A`/`D` turn the camera left/right 30° (`Shift` 90°);
 * `Q`/`E` tilt it up/down 30° (`Shift` 90°); `S` resets the view to the travel direction; the arrow
 * keys ←/↑/→ take the LEFT/UP/RIGHT branch at a junction. The answer is typed into the page's
 * answer box. Keys with Ctrl, Alt or Meta are the browser's (Ctrl+W closes the tab).
 */
import { FORWARD_SECONDS, TURN_DEGREES, type ArenaAction } from '../../arena/actions';

/** The fields of a KeyboardEvent the mapping reads. */
export interface KeyPress {
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

/** The action of a key press, or null when the key is not one of the arena's. */
export function keyAction(k: KeyPress): ArenaAction | null {
  if (k.ctrlKey || k.altKey || k.metaKey) return null;
  const turn = k.shiftKey ? TURN_DEGREES.LARGE : TURN_DEGREES.SMALL;
  switch (k.code) {
    case 'KeyW': return { kind: 'forward', seconds: k.shiftKey ? FORWARD_SECONDS.LARGE : FORWARD_SECONDS.SMALL };
    case 'KeyA': return { kind: 'rotate', deg: turn };
    case 'KeyD': return { kind: 'rotate', deg: -turn };
    case 'KeyQ': return { kind: 'tilt', deg: turn };
    case 'KeyE': return { kind: 'tilt', deg: -turn };
    case 'KeyS': return { kind: 'reset-view' };
    case 'ArrowLeft': return { kind: 'branch', token: 'LEFT' };
    case 'ArrowUp': return { kind: 'branch', token: 'UP' };
    case 'ArrowRight': return { kind: 'branch', token: 'RIGHT' };
    default: return null;
  }
}

/** The key help shown on the page, one line per key group. */
export const KEY_HELP: readonly string[] = [
  'W walk 1 s · Shift+W walk 5 s',
  'A / D turn left / right 30° (Shift 90°)',
  'Q / E look up / down 30° (Shift 90°)',
  'S look along the path again',
  '← ↑ → take the LEFT / UP / RIGHT branch',
  'Enter: type the answer',
];
