// ORCA step, one thread per agent, all environments in one dispatch.
// Prepended: crowd/crowd-types.wgsl, crowd/linear-program.wgsl.
// GPU twin of src/crowd/orca.ts + linear-program.ts (van den Berg et al. 2011; RVO2 src/Agent.cc,
// same names, branches and argument order; `lineCount` follows `lines` where RVO2 uses size()).
//
// Steps of computeVelocities (agent i, state k = stateIn):
//   1. preferred velocity toward the goal (crowd-spec.ts preferredVelocity);
//   2. agent neighbours: the min(maxNeighbors, MAX_NEIGHBORS) nearest agents of the same env with
//      distSq < neighborDist², from the 3x3 grid cells around i, ordered by (distSq, index);
//      the same scan measures state k into metrics[k] (min pair distance, overlaps, goal, speed);
//   3. obstacle neighbours: edges of the env that i is strictly right of, segment distSq <
//      (timeHorizonObst·maxSpeed + radius)², nearest MAX_OBSTACLE_NEIGHBORS by (distSq, index);
//   4. obstacle ORCA lines, then agent ORCA lines (point = velocity + responsibility·u);
//   5. linearProgram2, and linearProgram3 from the failing line;
//   6. stateOut[i] = (position + newVelocity·dt, newVelocity). Nothing reads stateOut this step.
// measureState runs step 2's measurement alone (for the last state of a run).
//
// Bindings (group 0): 0 params (uniform, dynamic offset), 1 agents, 2 stateIn, 3 stateOut,
// 4 cellStart, 5 cellAgents, 6 obstacleVertices, 7 envObstacleRanges (vec2u [begin, end) per env),
// 8 metrics (StateMetrics per state).

override CROWD_WORKGROUP_SIZE: u32 = 64u;
override MAX_NEIGHBORS: u32 = 16u;
override MAX_OBSTACLE_NEIGHBORS: u32 = 16u;

const FLT_MAX: f32 = 3.402823466e38;
const INF_BITS: u32 = 0x7f800000u;

@group(0) @binding(0) var<uniform> params: CrowdParams;
@group(0) @binding(1) var<storage, read> agents: array<AgentParams>;
@group(0) @binding(2) var<storage, read> stateIn: array<AgentState>;
@group(0) @binding(3) var<storage, read_write> stateOut: array<AgentState>;
@group(0) @binding(4) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> cellAgents: array<u32>;
@group(0) @binding(6) var<storage, read> obstacleVertices: array<ObstacleVertex>;
@group(0) @binding(7) var<storage, read> envObstacleRanges: array<vec2u>;
@group(0) @binding(8) var<storage, read_write> metrics: array<StateMetrics>;

var<private> orcaLines: LineArray;
var<private> nbrDistSq: array<f32, ORCA_LINE_CAPACITY>;
var<private> nbrIndex: array<u32, ORCA_LINE_CAPACITY>;

var<workgroup> wgMinDist: atomic<u32>;
var<workgroup> wgOverlap: atomic<u32>;
var<workgroup> wgReached: atomic<u32>;
var<workgroup> wgSpeed: atomic<u32>;

fn leftOf(a: vec2f, b: vec2f, c: vec2f) -> f32 {
  return det(a - c, b - a);
}

fn distSqPointLineSegment(a: vec2f, b: vec2f, c: vec2f) -> f32 {
  let r = dot(c - a, b - a) / absSq(b - a);
  if (r < 0.0) {
    return absSq(c - a);
  }
  if (r > 1.0) {
    return absSq(c - b);
  }
  return absSq(c - (a + r * (b - a)));
}

// (d, j) orders before (e, k): by squared distance, then index.
fn closer(d: f32, j: u32, e: f32, k: u32) -> bool {
  return d < e || (d == e && j < k);
}

// Inserts (d, j) into the sorted list nbr[0 .. *count) of capacity cap; returns nothing.
fn insertNeighbor(d: f32, j: u32, count: ptr<function, u32>, cap: u32) {
  var pos: u32;
  if (*count == cap) {
    if (cap == 0u || !closer(d, j, nbrDistSq[cap - 1u], nbrIndex[cap - 1u])) {
      return;
    }
    pos = cap - 1u;
  } else {
    pos = *count;
    *count += 1u;
  }
  while (pos > 0u && closer(d, j, nbrDistSq[pos - 1u], nbrIndex[pos - 1u])) {
    nbrDistSq[pos] = nbrDistSq[pos - 1u];
    nbrIndex[pos] = nbrIndex[pos - 1u];
    pos -= 1u;
  }
  nbrDistSq[pos] = d;
  nbrIndex[pos] = j;
}

// Legs from a vertex at rel (distSq = |rel|²): x = left leg, y = right leg direction (as mat2 cols).
fn legsFrom(rel: vec2f, distSq: f32, radius: f32) -> mat2x2f {
  let leg = sqrt(distSq - radius * radius);
  return mat2x2f(
    vec2f(rel.x * leg - rel.y * radius, rel.x * radius + rel.y * leg) / distSq,
    vec2f(rel.x * leg + rel.y * radius, -rel.x * radius + rel.y * leg) / distSq,
  );
}

fn cutoffCircleLine(velocity: vec2f, centre: vec2f, radius: f32, invTimeHorizonObst: f32) -> Line {
  let unitW = normalize(velocity - centre);
  return Line(centre + radius * invTimeHorizonObst * unitW, vec2f(unitW.y, -unitW.x));
}

fn lineAlong(direction: vec2f, origin: vec2f, radius: f32, invTimeHorizonObst: f32) -> Line {
  return Line(origin + radius * invTimeHorizonObst * vec2f(-direction.y, direction.x), direction);
}

// Obstacle ORCA lines (RVO2 Agent.cc, first loop) for the obstacle neighbours nbr[0 .. count).
fn obstacleLines(position: vec2f, velocity: vec2f, radius: f32, timeHorizonObst: f32, count: u32) -> u32 {
  let invTimeHorizonObst = 1.0 / timeHorizonObst;
  var lineCount = 0u;
  for (var n = 0u; n < count; n++) {
    var o1 = nbrIndex[n];
    var o2 = obstacleVertices[o1].next;
    let relativePosition1 = obstacleVertices[o1].point - position;
    let relativePosition2 = obstacleVertices[o2].point - position;
    // Already covered by a previous obstacle line?
    var alreadyCovered = false;
    for (var j = 0u; j < lineCount; j++) {
      let l = orcaLines[j];
      if (det(invTimeHorizonObst * relativePosition1 - l.point, l.direction) - invTimeHorizonObst * radius >= -RVO_EPSILON &&
          det(invTimeHorizonObst * relativePosition2 - l.point, l.direction) - invTimeHorizonObst * radius >= -RVO_EPSILON) {
        alreadyCovered = true;
        break;
      }
    }
    if (alreadyCovered) {
      continue;
    }
    // Not yet covered: check for collisions.
    let distSq1 = absSq(relativePosition1);
    let distSq2 = absSq(relativePosition2);
    let radiusSq = radius * radius;
    let obstacleVector = obstacleVertices[o2].point - obstacleVertices[o1].point;
    let s = dot(-relativePosition1, obstacleVector) / absSq(obstacleVector);
    let distSqLine = absSq(-relativePosition1 - s * obstacleVector);
    if (s < 0.0 && distSq1 <= radiusSq) {
      // Collision with left vertex; ignored if non-convex.
      if (obstacleVertices[o1].isConvex != 0u) {
        orcaLines[lineCount] = Line(vec2f(0.0), normalize(vec2f(-relativePosition1.y, relativePosition1.x)));
        lineCount += 1u;
      }
      continue;
    }
    if (s > 1.0 && distSq2 <= radiusSq) {
      // Collision with right vertex; ignored if non-convex or handled by the neighbouring edge.
      if (obstacleVertices[o2].isConvex != 0u && det(relativePosition2, obstacleVertices[o2].unitDir) >= 0.0) {
        orcaLines[lineCount] = Line(vec2f(0.0), normalize(vec2f(-relativePosition2.y, relativePosition2.x)));
        lineCount += 1u;
      }
      continue;
    }
    if (s >= 0.0 && s <= 1.0 && distSqLine <= radiusSq) {
      // Collision with the obstacle segment.
      orcaLines[lineCount] = Line(vec2f(0.0), -obstacleVertices[o1].unitDir);
      lineCount += 1u;
      continue;
    }
    // No collision: compute legs.
    var leftLegDirection: vec2f;
    var rightLegDirection: vec2f;
    if (s < 0.0 && distSqLine <= radiusSq) {
      // Seen obliquely: the left vertex defines the velocity obstacle.
      if (obstacleVertices[o1].isConvex == 0u) {
        continue;
      }
      o2 = o1;
      let legs = legsFrom(relativePosition1, distSq1, radius);
      leftLegDirection = legs[0];
      rightLegDirection = legs[1];
    } else if (s > 1.0 && distSqLine <= radiusSq) {
      // Seen obliquely: the right vertex defines the velocity obstacle.
      if (obstacleVertices[o2].isConvex == 0u) {
        continue;
      }
      o1 = o2;
      let legs = legsFrom(relativePosition2, distSq2, radius);
      leftLegDirection = legs[0];
      rightLegDirection = legs[1];
    } else {
      // Usual situation.
      if (obstacleVertices[o1].isConvex != 0u) {
        leftLegDirection = legsFrom(relativePosition1, distSq1, radius)[0];
      } else {
        leftLegDirection = -obstacleVertices[o1].unitDir; // Left leg extends the cut-off line.
      }
      if (obstacleVertices[o2].isConvex != 0u) {
        rightLegDirection = legsFrom(relativePosition2, distSq2, radius)[1];
      } else {
        rightLegDirection = obstacleVertices[o1].unitDir; // Right leg extends the cut-off line.
      }
    }
    // Legs never point into the neighbouring edge at a convex vertex ("foreign" legs).
    let obstacle1 = obstacleVertices[o1];
    let obstacle2 = obstacleVertices[o2];
    let leftNeighborDir = obstacleVertices[obstacle1.prev].unitDir;
    var isLeftLegForeign = false;
    var isRightLegForeign = false;
    if (obstacle1.isConvex != 0u && det(leftLegDirection, -leftNeighborDir) >= 0.0) {
      leftLegDirection = -leftNeighborDir; // Left leg points into obstacle.
      isLeftLegForeign = true;
    }
    if (obstacle2.isConvex != 0u && det(rightLegDirection, obstacle2.unitDir) <= 0.0) {
      rightLegDirection = obstacle2.unitDir; // Right leg points into obstacle.
      isRightLegForeign = true;
    }
    // Cut-off centres; project the current velocity on the velocity obstacle.
    let leftCutoff = invTimeHorizonObst * (obstacle1.point - position);
    let rightCutoff = invTimeHorizonObst * (obstacle2.point - position);
    let cutoffVec = rightCutoff - leftCutoff;
    let sameVertex = o1 == o2;
    var t = 0.5;
    if (!sameVertex) {
      t = dot(velocity - leftCutoff, cutoffVec) / absSq(cutoffVec);
    }
    let tLeft = dot(velocity - leftCutoff, leftLegDirection);
    let tRight = dot(velocity - rightCutoff, rightLegDirection);
    if ((t < 0.0 && tLeft < 0.0) || (sameVertex && tLeft < 0.0 && tRight < 0.0)) {
      orcaLines[lineCount] = cutoffCircleLine(velocity, leftCutoff, radius, invTimeHorizonObst); // Left cut-off circle.
      lineCount += 1u;
      continue;
    }
    if (t > 1.0 && tRight < 0.0) {
      orcaLines[lineCount] = cutoffCircleLine(velocity, rightCutoff, radius, invTimeHorizonObst); // Right cut-off circle.
      lineCount += 1u;
      continue;
    }
    // Project on the left leg, right leg or cut-off line, whichever is closest to the velocity.
    var distSqCutoff = FLT_MAX;
    if (!(t < 0.0 || t > 1.0 || sameVertex)) {
      distSqCutoff = absSq(velocity - (leftCutoff + t * cutoffVec));
    }
    var distSqLeft = FLT_MAX;
    if (tLeft >= 0.0) {
      distSqLeft = absSq(velocity - (leftCutoff + tLeft * leftLegDirection));
    }
    var distSqRight = FLT_MAX;
    if (tRight >= 0.0) {
      distSqRight = absSq(velocity - (rightCutoff + tRight * rightLegDirection));
    }
    if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
      orcaLines[lineCount] = lineAlong(-obstacle1.unitDir, leftCutoff, radius, invTimeHorizonObst); // Cut-off line.
      lineCount += 1u;
      continue;
    }
    if (distSqLeft <= distSqRight) {
      if (!isLeftLegForeign) {
        orcaLines[lineCount] = lineAlong(leftLegDirection, leftCutoff, radius, invTimeHorizonObst); // Left leg.
        lineCount += 1u;
      }
      continue;
    }
    if (!isRightLegForeign) {
      orcaLines[lineCount] = lineAlong(-rightLegDirection, rightCutoff, radius, invTimeHorizonObst); // Right leg.
      lineCount += 1u;
    }
  }
  return lineCount;
}

// The ORCA half-plane of agent a induced by agent b (RVO2 Agent.cc, second loop).
fn agentLine(a: AgentParams, sa: AgentState, b: AgentParams, sb: AgentState) -> Line {
  let invTimeHorizon = 1.0 / a.timeHorizon;
  let relativePosition = sb.position - sa.position;
  let relativeVelocity = sa.velocity - sb.velocity;
  let distSq = absSq(relativePosition);
  let combinedRadius = a.radius + b.radius;
  let combinedRadiusSq = combinedRadius * combinedRadius;
  var direction: vec2f;
  var u: vec2f;
  if (distSq > combinedRadiusSq) {
    // No collision. w: from the cut-off centre to the relative velocity.
    let w = relativeVelocity - invTimeHorizon * relativePosition;
    let wLengthSq = absSq(w);
    let dotProduct1 = dot(w, relativePosition);
    if (dotProduct1 < 0.0 && dotProduct1 * dotProduct1 > combinedRadiusSq * wLengthSq) {
      // Project on cut-off circle.
      let wLength = sqrt(wLengthSq);
      let unitW = w / wLength;
      direction = vec2f(unitW.y, -unitW.x);
      u = (combinedRadius * invTimeHorizon - wLength) * unitW;
    } else {
      // Project on legs.
      let leg = sqrt(distSq - combinedRadiusSq);
      let p = relativePosition;
      if (det(relativePosition, w) > 0.0) {
        direction = vec2f(p.x * leg - p.y * combinedRadius, p.x * combinedRadius + p.y * leg) / distSq; // Left leg.
      } else {
        direction = -vec2f(p.x * leg + p.y * combinedRadius, -p.x * combinedRadius + p.y * leg) / distSq; // Right leg.
      }
      u = dot(relativeVelocity, direction) * direction - relativeVelocity;
    }
  } else {
    // Collision: project on the cut-off circle of time timeStep.
    let invTimeStep = 1.0 / params.timeStep;
    let w = relativeVelocity - invTimeStep * relativePosition;
    let wLength = length(w);
    let unitW = w / wLength;
    direction = vec2f(unitW.y, -unitW.x);
    u = (combinedRadius * invTimeStep - wLength) * unitW;
  }
  return Line(sa.velocity + a.responsibility * u, direction);
}

fn preferredVelocity(position: vec2f, goal: vec2f, prefSpeed: f32) -> vec2f {
  let g = goal - position;
  if (absSq(g) > prefSpeed * prefSpeed) {
    return g * (prefSpeed / length(g));
  }
  return g;
}

// Scans the 3x3 cells around agent i: fills the agent-neighbour list (when collect) and returns
// (min neighbour distance in range, overlap flag) for the metrics.
fn scanNeighbors(i: u32, collect: bool, count: ptr<function, u32>) -> vec2f {
  let a = agents[i];
  let p = stateIn[i].position;
  let rangeSq = a.neighborDist * a.neighborDist;
  let cap = min(a.maxNeighbors, MAX_NEIGHBORS);
  let c = cellCoord(p);
  var minDistSq = FLT_MAX;
  var overlap = 0.0;
  for (var dy = -1; dy <= 1; dy++) {
    for (var dx = -1; dx <= 1; dx++) {
      let q = c + vec2i(dx, dy);
      if (q.x < 0 || q.y < 0 || q.x >= i32(params.gridWidth) || q.y >= i32(params.gridHeight)) {
        continue;
      }
      let cell = cellIndex(a.env, q);
      for (var s = cellStart[cell]; s < cellStart[cell + 1u]; s++) {
        let j = cellAgents[s];
        if (j == i) {
          continue;
        }
        let d = absSq(stateIn[j].position - p);
        if (d >= rangeSq) {
          continue;
        }
        minDistSq = min(minDistSq, d);
        if (sqrt(d) < a.radius + agents[j].radius - params.overlapTolerance) {
          overlap = 1.0;
        }
        if (collect) {
          insertNeighbor(d, j, count, cap);
        }
      }
    }
  }
  return vec2f(minDistSq, overlap);
}

fn accumulateMetrics(i: u32, scan: vec2f) {
  if (scan.x < FLT_MAX) {
    atomicMin(&wgMinDist, bitcast<u32>(sqrt(scan.x)));
  }
  if (scan.y > 0.0) {
    atomicAdd(&wgOverlap, 1u);
  }
  let a = agents[i];
  let s = stateIn[i];
  if (absSq(s.position - a.goal) <= a.goalRadius * a.goalRadius) {
    atomicAdd(&wgReached, 1u);
  }
  atomicAdd(&wgSpeed, u32(round(1000.0 * length(s.velocity))));
}

fn beginMetrics(lid: u32) {
  if (lid == 0u) {
    atomicStore(&wgMinDist, INF_BITS);
    atomicStore(&wgOverlap, 0u);
    atomicStore(&wgReached, 0u);
    atomicStore(&wgSpeed, 0u);
  }
  workgroupBarrier();
}

fn endMetrics(lid: u32) {
  workgroupBarrier();
  if (lid == 0u) {
    let k = params.stateIndex;
    atomicMin(&metrics[k].minPairDistance, atomicLoad(&wgMinDist));
    atomicAdd(&metrics[k].overlapAgents, atomicLoad(&wgOverlap));
    atomicAdd(&metrics[k].reachedAgents, atomicLoad(&wgReached));
    atomicAdd(&metrics[k].speedSumMilli, atomicLoad(&wgSpeed));
  }
}

fn stepAgent(i: u32) {
  let a = agents[i];
  let s = stateIn[i];
  // 2. Agent neighbours (and metrics of state k).
  var agentCount = 0u;
  let scan = scanNeighbors(i, true, &agentCount);
  accumulateMetrics(i, scan);
  var agentNbr: array<u32, ORCA_LINE_CAPACITY>;
  for (var n = 0u; n < agentCount; n++) {
    agentNbr[n] = nbrIndex[n];
  }
  // 3. Obstacle neighbours (reuse the sorted list).
  var obstCount = 0u;
  let range = envObstacleRanges[a.env];
  let obstRangeSq = (a.timeHorizonObst * a.maxSpeed + a.radius) * (a.timeHorizonObst * a.maxSpeed + a.radius);
  for (var k = range.x; k < range.y; k++) {
    let v1 = obstacleVertices[k].point;
    let v2 = obstacleVertices[obstacleVertices[k].next].point;
    if (leftOf(v1, v2, s.position) >= 0.0) {
      continue;
    }
    let d = distSqPointLineSegment(v1, v2, s.position);
    if (d < obstRangeSq) {
      insertNeighbor(d, k, &obstCount, MAX_OBSTACLE_NEIGHBORS);
    }
  }
  // 4. Lines: obstacles first, then agents.
  let numObstLines = obstacleLines(s.position, s.velocity, a.radius, a.timeHorizonObst, obstCount);
  var lineCount = numObstLines;
  for (var n = 0u; n < agentCount; n++) {
    let j = agentNbr[n];
    orcaLines[lineCount] = agentLine(a, s, agents[j], stateIn[j]);
    lineCount += 1u;
  }
  // 5. Linear programs.
  var newVelocity = vec2f(0.0);
  let prefVelocity = preferredVelocity(s.position, a.goal, a.prefSpeed);
  let lineFail = linearProgram2(&orcaLines, lineCount, a.maxSpeed, prefVelocity, false, &newVelocity);
  if (lineFail < lineCount) {
    linearProgram3(&orcaLines, lineCount, numObstLines, lineFail, a.maxSpeed, &newVelocity);
  }
  // 6. Move (double-buffered).
  stateOut[i] = AgentState(s.position + newVelocity * params.timeStep, newVelocity);
}

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn computeVelocities(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  beginMetrics(lid);
  let i = gid.x + gid.y * nwg.x * CROWD_WORKGROUP_SIZE;
  if (i < params.agentCount) {
    stepAgent(i);
  }
  endMetrics(lid);
}

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn measureState(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  beginMetrics(lid);
  let i = gid.x + gid.y * nwg.x * CROWD_WORKGROUP_SIZE;
  if (i < params.agentCount) {
    var unused = 0u;
    accumulateMetrics(i, scanNeighbors(i, false, &unused));
  }
  endMetrics(lid);
}
