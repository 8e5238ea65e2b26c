/**
 * ORCA for one agent, the plain TypeScript reference of `shaders/crowd/orca.wgsl`, with RVO2's
 * semantics (van den Berg, Guy, Lin & Manocha 2011, "Reciprocal n-body collision avoidance";
 * RVO2 `src/Agent.cc` `computeNewVelocity`): obstacle half-planes first (§6, convex and non-convex
 * vertices, already-covered check), then agent half-planes (§5.1, cut-off circle, left/right leg,
 * collision case over one time step), then `linearProgram2` and, when infeasible, `linearProgram3`.
 *
 * One addition: a per-agent `responsibility` share r. RVO2 moves the half-plane by ½u (each agent of
 * a pair takes half); here it moves by r·u, so r = 0.5 is ORCA's standard split and r = 0 ignores
 * other agents (the agent keeps its velocity and others give way: standing or obstructing
 * pedestrians). Frames: world x-y plane, positions in m, velocities in m/s, times in s.
 */
import { type Line, linearProgram2, linearProgram3, RVO_EPSILON, type VelocityResult } from './linear-program';
import type { ObstacleVertex } from './obstacles';
import { type Vec2, abs, absSq, add, det, dot, normalize, scale, sub, vec2 } from './vec2';

/** What ORCA needs of the agent whose velocity is computed. */
export interface OrcaAgent {
  position: Vec2;
  /** Current velocity (the one used during the last step). */
  velocity: Vec2;
  /** Preferred velocity this step (e.g. toward the goal). */
  prefVelocity: Vec2;
  /** Disc radius, m. */
  radius: number;
  /** Speed limit, m/s. */
  maxSpeed: number;
  /** τ for other agents, s. */
  timeHorizon: number;
  /** τ for obstacles, s. */
  timeHorizonObst: number;
  /** Share of the avoidance this agent takes, in [0, 1]; 0.5 is ORCA's reciprocal split. */
  responsibility: number;
}

/** What ORCA needs of a neighbouring agent. */
export interface OrcaNeighbor {
  position: Vec2;
  velocity: Vec2;
  radius: number;
}

const perp = (v: Vec2) => vec2(-v.y, v.x);

/**
 * Obstacle ORCA lines for `agent` (RVO2 `Agent.cc`, first loop), in the order of `neighbors`
 * (indices into `vertices`, as returned by `obstacleNeighbors`). Appends to `lines`.
 */
export function obstacleLines(agent: OrcaAgent, neighbors: readonly number[], vertices: readonly ObstacleVertex[], lines: Line[]): void {
  const invTimeHorizonObst = 1 / agent.timeHorizonObst;
  const { position, velocity, radius } = agent;
  for (const index of neighbors) {
    let obstacle1 = vertices[index];
    let obstacle2 = vertices[obstacle1.next];
    const relativePosition1 = sub(obstacle1.point, position);
    const relativePosition2 = sub(obstacle2.point, position);
    // Already covered by a previous obstacle line?
    const covered = lines.some(
      (l) =>
        det(sub(scale(relativePosition1, invTimeHorizonObst), l.point), l.direction) - invTimeHorizonObst * radius >= -RVO_EPSILON &&
        det(sub(scale(relativePosition2, invTimeHorizonObst), l.point), l.direction) - invTimeHorizonObst * radius >= -RVO_EPSILON,
    );
    if (covered) continue;
    // Not yet covered: check for collisions.
    const distSq1 = absSq(relativePosition1);
    const distSq2 = absSq(relativePosition2);
    const radiusSq = radius * radius;
    const obstacleVector = sub(obstacle2.point, obstacle1.point);
    const s = -dot(relativePosition1, obstacleVector) / absSq(obstacleVector);
    const distSqLine = absSq(sub(scale(relativePosition1, -1), scale(obstacleVector, s)));
    if (s < 0 && distSq1 <= radiusSq) {
      // Collision with left vertex; ignored if non-convex.
      if (obstacle1.isConvex) lines.push({ point: vec2(0, 0), direction: normalize(perp(relativePosition1)) });
      continue;
    }
    if (s > 1 && distSq2 <= radiusSq) {
      // Collision with right vertex; ignored if non-convex or taken care of by the neighbouring edge.
      if (obstacle2.isConvex && det(relativePosition2, obstacle2.unitDir) >= 0) {
        lines.push({ point: vec2(0, 0), direction: normalize(perp(relativePosition2)) });
      }
      continue;
    }
    if (s >= 0 && s <= 1 && distSqLine <= radiusSq) {
      // Collision with the obstacle segment.
      lines.push({ point: vec2(0, 0), direction: scale(obstacle1.unitDir, -1) });
      continue;
    }
    // No collision: compute legs. Seen obliquely, both legs can come from one vertex; at a
    // non-convex vertex the leg extends the cut-off line.
    let leftLegDirection: Vec2;
    let rightLegDirection: Vec2;
    const legsFrom = (rel: Vec2, distSq: number): [Vec2, Vec2] => {
      const leg = Math.sqrt(distSq - radiusSq);
      return [
        scale(vec2(rel.x * leg - rel.y * radius, rel.x * radius + rel.y * leg), 1 / distSq),
        scale(vec2(rel.x * leg + rel.y * radius, -rel.x * radius + rel.y * leg), 1 / distSq),
      ];
    };
    if (s < 0 && distSqLine <= radiusSq) {
      // Seen obliquely: the left vertex defines the velocity obstacle.
      if (!obstacle1.isConvex) continue;
      obstacle2 = obstacle1;
      [leftLegDirection, rightLegDirection] = legsFrom(relativePosition1, distSq1);
    } else if (s > 1 && distSqLine <= radiusSq) {
      // Seen obliquely: the right vertex defines the velocity obstacle.
      if (!obstacle2.isConvex) continue;
      obstacle1 = obstacle2;
      [leftLegDirection, rightLegDirection] = legsFrom(relativePosition2, distSq2);
    } else {
      // Usual situation.
      leftLegDirection = obstacle1.isConvex ? legsFrom(relativePosition1, distSq1)[0] : scale(obstacle1.unitDir, -1);
      rightLegDirection = obstacle2.isConvex ? legsFrom(relativePosition2, distSq2)[1] : obstacle1.unitDir;
    }
    // A leg never points into the neighbouring edge at a convex vertex: take that edge's cut-off
    // line instead; if the velocity projects on such a "foreign" leg, no constraint is added.
    const leftNeighbor = vertices[obstacle1.prev];
    let isLeftLegForeign = false;
    let isRightLegForeign = false;
    if (obstacle1.isConvex && det(leftLegDirection, scale(leftNeighbor.unitDir, -1)) >= 0) {
      leftLegDirection = scale(leftNeighbor.unitDir, -1); // Left leg points into obstacle.
      isLeftLegForeign = true;
    }
    if (obstacle2.isConvex && det(rightLegDirection, obstacle2.unitDir) <= 0) {
      rightLegDirection = obstacle2.unitDir; // Right leg points into obstacle.
      isRightLegForeign = true;
    }
    // Cut-off centres, and projection of the current velocity on the velocity obstacle.
    const leftCutoff = scale(sub(obstacle1.point, position), invTimeHorizonObst);
    const rightCutoff = scale(sub(obstacle2.point, position), invTimeHorizonObst);
    const cutoffVec = sub(rightCutoff, leftCutoff);
    const sameVertex = obstacle1 === obstacle2;
    const t = sameVertex ? 0.5 : dot(sub(velocity, leftCutoff), cutoffVec) / absSq(cutoffVec);
    const tLeft = dot(sub(velocity, leftCutoff), leftLegDirection);
    const tRight = dot(sub(velocity, rightCutoff), rightLegDirection);
    const cutoffCircleLine = (centre: Vec2): Line => {
      const unitW = normalize(sub(velocity, centre));
      return { direction: vec2(unitW.y, -unitW.x), point: add(centre, scale(unitW, radius * invTimeHorizonObst)) };
    };
    if ((t < 0 && tLeft < 0) || (sameVertex && tLeft < 0 && tRight < 0)) {
      lines.push(cutoffCircleLine(leftCutoff)); // Project on left cut-off circle.
      continue;
    }
    if (t > 1 && tRight < 0) {
      lines.push(cutoffCircleLine(rightCutoff)); // Project on right cut-off circle.
      continue;
    }
    // Project on the left leg, right leg or cut-off line, whichever is closest to the velocity.
    const distSqCutoff = t < 0 || t > 1 || sameVertex ? Infinity : absSq(sub(velocity, add(leftCutoff, scale(cutoffVec, t))));
    const distSqLeft = tLeft < 0 ? Infinity : absSq(sub(velocity, add(leftCutoff, scale(leftLegDirection, tLeft))));
    const distSqRight = tRight < 0 ? Infinity : absSq(sub(velocity, add(rightCutoff, scale(rightLegDirection, tRight))));
    const lineAlong = (direction: Vec2, from: Vec2): Line => ({
      direction,
      point: add(from, scale(perp(direction), radius * invTimeHorizonObst)),
    });
    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      lines.push(lineAlong(scale(obstacle1.unitDir, -1), leftCutoff)); // Project on cut-off line.
      continue;
    }
    if (distSqLeft <= distSqRight) {
      if (!isLeftLegForeign) lines.push(lineAlong(leftLegDirection, leftCutoff)); // Project on left leg.
      continue;
    }
    if (!isRightLegForeign) lines.push(lineAlong(scale(rightLegDirection, -1), rightCutoff)); // Project on right leg.
  }
}

/**
 * The ORCA half-plane of `agent` induced by `other` (RVO2 `Agent.cc`, second loop, paper §5.1):
 * u is the smallest change of relative velocity that leaves the truncated velocity obstacle, and
 * the line passes through velocity + responsibility·u.
 *
 * @param timeStep Simulation step, s (the collision case uses a cut-off of one step).
 */
export function agentLine(agent: OrcaAgent, other: OrcaNeighbor, timeStep: number): Line {
  const invTimeHorizon = 1 / agent.timeHorizon;
  const relativePosition = sub(other.position, agent.position);
  const relativeVelocity = sub(agent.velocity, other.velocity);
  const distSq = absSq(relativePosition);
  const combinedRadius = agent.radius + other.radius;
  const combinedRadiusSq = combinedRadius * combinedRadius;
  let direction: Vec2;
  let u: Vec2;
  if (distSq > combinedRadiusSq) {
    // No collision. w: from the cut-off centre to the relative velocity.
    const w = sub(relativeVelocity, scale(relativePosition, invTimeHorizon));
    const wLengthSq = absSq(w);
    const dotProduct1 = dot(w, relativePosition);
    if (dotProduct1 < 0 && dotProduct1 * dotProduct1 > combinedRadiusSq * wLengthSq) {
      // Project on cut-off circle.
      const wLength = Math.sqrt(wLengthSq);
      const unitW = scale(w, 1 / wLength);
      direction = vec2(unitW.y, -unitW.x);
      u = scale(unitW, combinedRadius * invTimeHorizon - wLength);
    } else {
      // Project on legs.
      const leg = Math.sqrt(distSq - combinedRadiusSq);
      const { x, y } = relativePosition;
      direction =
        det(relativePosition, w) > 0
          ? scale(vec2(x * leg - y * combinedRadius, x * combinedRadius + y * leg), 1 / distSq) // Left leg.
          : scale(vec2(x * leg + y * combinedRadius, -x * combinedRadius + y * leg), -1 / distSq); // Right leg.
      u = sub(scale(direction, dot(relativeVelocity, direction)), relativeVelocity);
    }
  } else {
    // Collision: project on the cut-off circle of time timeStep.
    const invTimeStep = 1 / timeStep;
    const w = sub(relativeVelocity, scale(relativePosition, invTimeStep));
    const wLength = abs(w);
    const unitW = scale(w, 1 / wLength);
    direction = vec2(unitW.y, -unitW.x);
    u = scale(unitW, combinedRadius * invTimeStep - wLength);
  }
  return { direction, point: add(agent.velocity, scale(u, agent.responsibility)) };
}

/**
 * The new velocity of one agent (RVO2 `Agent::computeNewVelocity`): obstacle lines, agent lines,
 * then the 2D LP toward `prefVelocity` within `maxSpeed`, and the 3D LP from the first failing
 * line when that is infeasible.
 *
 * @param neighbors Agent neighbours, nearest first (see `kNearestAgents`).
 * @param obstacleNeighborIndices Obstacle vertices, nearest first (see `obstacleNeighbors`).
 * @returns the new velocity, m/s; also the lines, for tests.
 */
export function computeNewVelocity(
  agent: OrcaAgent,
  neighbors: readonly OrcaNeighbor[],
  obstacleNeighborIndices: readonly number[],
  vertices: readonly ObstacleVertex[],
  timeStep: number,
): { velocity: Vec2; lines: Line[]; numObstLines: number; lineFail: number } {
  const lines: Line[] = [];
  obstacleLines(agent, obstacleNeighborIndices, vertices, lines);
  const numObstLines = lines.length;
  for (const other of neighbors) lines.push(agentLine(agent, other, timeStep));
  const result: VelocityResult = { value: vec2(0, 0) };
  const lineFail = linearProgram2(lines, agent.maxSpeed, agent.prefVelocity, false, result);
  if (lineFail < lines.length) linearProgram3(lines, numObstLines, lineFail, agent.maxSpeed, result);
  return { velocity: result.value, lines, numObstLines, lineFail };
}
