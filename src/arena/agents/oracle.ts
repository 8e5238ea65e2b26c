/**
 * The oracle: a privileged agent that reads the task's truth, the network and its own walker state,
 * and acts only with the agent's actions (360CityArena's tokens). It walks the shortest path to the
 * goal waypoint (the waypoint nearest the goal) and answers there, well inside the radius; it
 * answers grid, count and name tasks at once from the truth. Running it on a task proves the task
 * solvable within its step limit (the generator does).
 */
import type { ArenaAction } from '../actions';
import { FORWARD_SECONDS, TURN_DEGREES } from '../actions';
import type { AgentTurn, ArenaAgent, PrivilegedView } from '../agent';
import type { ArenaObservation } from '../episode';
import { navDistances, type NavDistances } from '../network';
import { NetworkWalker, WALK_SPEED } from '../walker';
import { navIndex } from '../../world/nav-index';

/** Camera-to-edge angle the oracle turns the camera within before walking from a branch, rad (25°). */
const AIM = (25 * Math.PI) / 180;

const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));

/** The waypoint nearest a goal point, by straight-line distance (ties by index). */
export function goalWaypoint(view: Pick<PrivilegedView, 'world'>, goal: readonly [number, number]): number {
  const near = navIndex(view.world.nav).nodesNear([goal[0], goal[1]], 40);
  if (near.length === 0) throw new RangeError(`oracle: no network waypoint within 40 m of the goal (${goal[0].toFixed(1)}, ${goal[1].toFixed(1)})`);
  return near[0];
}

export class OracleAgent implements ArenaAgent {
  readonly name = 'oracle';
  readonly needsImages = false;
  private view: PrivilegedView | null = null;
  private toGoal: NavDistances | null = null;

  begin(_brief: unknown, privileged: PrivilegedView): void {
    this.view = privileged;
    const t = privileged.task.truth;
    this.toGoal = t.scoring === 'coordinate_match' ? navDistances(privileged.world.nav, goalWaypoint(privileged, t.goal)) : null;
  }

  private turn(action: ArenaAction, thought: string): AgentTurn {
    return { action, thought };
  }

  /** The action turning the camera by about `diff` rad: the rotation nearest it. */
  private rotateBy(diff: number): ArenaAction {
    const deg = (diff * 180) / Math.PI;
    const sizes = Object.values(TURN_DEGREES);
    const m = sizes.reduce((best, s) => (Math.abs(Math.abs(deg) - s) < Math.abs(Math.abs(deg) - best) ? s : best), sizes[0]);
    return { kind: 'rotate', deg: Math.sign(deg) * m };
  }

  async act(_obs: ArenaObservation): Promise<AgentTurn> {
    const view = this.view;
    if (!view) throw new Error('oracle: act before begin');
    const t = view.task.truth;
    if (t.scoring === 'exact_match') return this.turn({ kind: 'answer', text: `x:${t.cell.x} y:${t.cell.y}` }, 'privileged: the start cell');
    if (t.scoring === 'mra') return this.turn({ kind: 'answer', text: String(t.count) }, 'privileged: the inventory count');
    if (t.scoring === 'fuzzy_match') return this.turn({ kind: 'answer', text: t.name }, 'privileged: the inventory name');
    if (t.scoring !== 'coordinate_match') throw new Error(`oracle: ${view.task.family} is played with UrbanGround's moves (the ladder oracle)`);
    const d = this.toGoal!;
    const nav = view.world.nav;
    const s = view.walker();
    const w = new NetworkWalker(nav, s);
    const len = navIndex(nav).adj[s.from].find((e) => e.to === s.to)!.length;
    const viaTo = len - s.offset + d.dist[s.to];
    const viaFrom = s.offset + d.dist[s.from];
    const remaining = Math.min(viaTo, viaFrom);
    const pos = w.position;
    const toGoal = Math.hypot(pos[0] - t.goal[0], pos[1] - t.goal[1]);
    if (remaining < WALK_SPEED / 2 || (toGoal <= t.epsilon / 2 && remaining < WALK_SPEED * FORWARD_SECONDS.SMALL)) {
      return this.turn({ kind: 'answer', text: 'I am at the goal.' }, `privileged: ${toGoal.toFixed(1)} m from the goal`);
    }
    const node = w.node;
    // The next waypoint on the shortest path (Dijkstra from the goal: prev points towards it).
    const next = node !== null ? d.prev[node] : viaTo <= viaFrom ? s.to : s.from;
    const walk = (): AgentTurn => {
      // The largest step that does not overshoot the goal waypoint by more than half a metre.
      const size = remaining >= FORWARD_SECONDS.LARGE * WALK_SPEED - 0.5 ? 'LARGE' : remaining >= FORWARD_SECONDS.MEDIUM * WALK_SPEED - 0.5 ? 'MEDIUM' : 'SMALL';
      return this.turn({ kind: 'forward', seconds: FORWARD_SECONDS[size] }, `privileged: ${remaining.toFixed(1)} m to go`);
    };
    const nodes = nav.nodes;
    if (node !== null && w.atBranch) {
      if (s.from === node && s.to === next && Math.abs(s.viewYaw) <= AIM) return walk();
      const opt = w.branchOptions().find((o) => o.to === next && o.token);
      if (opt?.token) return this.turn({ kind: 'branch', token: opt.token }, `privileged: branch ${opt.token}`);
      const want = Math.atan2(nodes[next][1] - nodes[node][1], nodes[next][0] - nodes[node][0]);
      const diff = wrap(want - w.cameraYaw);
      return Math.abs(diff) > AIM ? this.turn(this.rotateBy(diff), 'privileged: face the branch') : walk();
    }
    // On a plain waypoint or between two: forward keeps to the edge's direction unless the camera faces back.
    const backwards = node === null ? next === s.from : node === s.to ? next === s.from : next !== s.to;
    if (backwards) {
      if (Math.abs(s.viewYaw) > Math.PI / 2) return walk();
      return this.turn({ kind: 'rotate', deg: TURN_DEGREES.LARGE }, 'privileged: turn round');
    }
    if (Math.abs(s.viewYaw) > Math.PI / 2) return this.turn({ kind: 'reset-view' }, 'privileged: face the way');
    return walk();
  }
}
