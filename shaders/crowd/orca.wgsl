// ORCA step, one thread per agent, all environments in one dispatch.
// Prepended: crowd/crowd-types.wgsl, crowd/grid-cell.wgsl, crowd/linear-program.wgsl, crowd/orca-core.wgsl.
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

var<workgroup> wgMinDist: atomic<u32>;
var<workgroup> wgOverlap: atomic<u32>;
var<workgroup> wgReached: atomic<u32>;
var<workgroup> wgSpeed: atomic<u32>;

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
  let range = envObstacleRanges[a.env];
  let obstRange = a.timeHorizonObst * a.maxSpeed + a.radius;
  let obstCount = obstacleNeighbors(s.position, range, obstRange * obstRange, MAX_OBSTACLE_NEIGHBORS);
  // 4. Lines: obstacles first, then agents.
  let numObstLines = obstacleLines(s.position, s.velocity, a.radius, a.timeHorizonObst, obstCount);
  var lineCount = numObstLines;
  for (var n = 0u; n < agentCount; n++) {
    let j = agentNbr[n];
    orcaLines[lineCount] = agentLine(s.position, s.velocity, a.radius, a.timeHorizon, a.responsibility, stateIn[j].position, stateIn[j].velocity, agents[j].radius, params.timeStep);
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
