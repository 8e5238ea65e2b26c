/**
 * CPU neighbour search for the reference: a uniform grid per environment (cells at least as large
 * as the largest neighborDist, so a 3×3 block of cells holds every agent within range), and RVO2's
 * k-nearest selection (`Agent::insertAgentNeighbor`) made deterministic: the `maxNeighbors` agents
 * of the same env with squared distance < neighborDist², ordered by (distance, agent index). RVO2's
 * kd-tree returns the same set except for exact distance ties, whose order depends on its traversal.
 */

/** Grid over agent positions (x-y, m), rebuilt each step. */
export class AgentGrid {
  private readonly cells = new Map<number, number[]>();

  /**
   * @param positions Interleaved x, y per agent, m.
   * @param envs Environment of each agent.
   * @param cellSize Cell edge, m; must be ≥ every agent's neighborDist.
   */
  constructor(private readonly positions: ArrayLike<number>, private readonly envs: ArrayLike<number>, readonly cellSize: number) {
    for (let i = 0; i < envs.length; i++) {
      const key = this.key(envs[i], this.cell(positions[2 * i]), this.cell(positions[2 * i + 1]));
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    }
  }

  private cell(v: number): number {
    return Math.floor(v / this.cellSize);
  }

  private key(env: number, cx: number, cy: number): number {
    return (env * 2 ** 21 + (cx + 2 ** 20)) * 2 ** 21 + (cy + 2 ** 20);
  }

  /** Calls `visit(j, distSq)` for every other agent of i's env in the 3×3 cells around agent i. */
  forEachCandidate(i: number, visit: (j: number, distSq: number) => void): void {
    const px = this.positions[2 * i];
    const py = this.positions[2 * i + 1];
    const cx = this.cell(px);
    const cy = this.cell(py);
    const env = this.envs[i];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const list = this.cells.get(this.key(env, cx + dx, cy + dy));
        if (!list) continue;
        for (const j of list) {
          if (j === i) continue;
          const ex = this.positions[2 * j] - px;
          const ey = this.positions[2 * j + 1] - py;
          visit(j, ex * ex + ey * ey);
        }
      }
    }
  }

  /** The k nearest agents to agent i with distSq < rangeSq, ordered by (distSq, index). */
  kNearest(i: number, rangeSq: number, k: number): number[] {
    if (k <= 0) return [];
    const found: { d: number; j: number }[] = [];
    this.forEachCandidate(i, (j, d) => {
      if (d < rangeSq) found.push({ d, j });
    });
    found.sort((a, b) => a.d - b.d || a.j - b.j);
    return found.slice(0, k).map((f) => f.j);
  }
}
