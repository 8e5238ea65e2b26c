// The scenario pedestrians of B benchmark slots on the GPU: behaviour state machines (SidewalkBench
// seeds/002 §3.2), preferred velocities, ORCA (van den Berg et al. 2011) and integration.
// Prepended: crowd/crowd-types.wgsl, crowd/pedestrian-types.wgsl, crowd/linear-program.wgsl,
// crowd/orca-core.wgsl. TypeScript reference: src/crowd/scenario-pedestrians.ts (ScenarioPedestrians
// .step; same order of operations, names and constants). Host: src/crowd/gpu-pedestrian-batch.ts.
//
// Pedestrian i of slot s is g = s·PEDS_PER_SLOT + i. Kernels of one step, in one compute pass:
//   1. updateBehaviours  one thread per slot, the slot's pedestrians in scenario order (control()):
//      triggers, paths, lateral timing, gestures, queues, interact phases. Sequential within a slot because a queue
//      member reads the `triggered` flag that members before it set in the same step (as the TS loop);
//   2. computeVelocities one thread per pedestrian: preferred velocity (consumes reached waypoints;
//      back to the anchor when the path is empty), then ORCA with the robot disc (unless its
//      responsibility is 0), the slot's pedestrians within NEIGHBOR_DIST (nearest
//      PED_MAX_NEIGHBORS) and the slot's obstacle edges (nearest MAX_OBSTACLE_NEIGHBORS); writes
//      nextVelocity (reads kinematics only);
//   3. integrate         one thread per pedestrian: velocity, position += v·dt, heading, anchor.
// Inactive slots (SlotStep.running = 0) and empty places (i ≥ pedCount) are skipped.
//
// Bindings (group 0): 0 slots, 1 pedParams, 2 pedStates, 3 kinematics, 4 routes, 5 paths (a pool of
// points: pedestrian g's region starts at pathBase(g), any length, sized by the host), 6
// obstacleVertices, 7 nextVelocity.

override CROWD_WORKGROUP_SIZE: u32 = 64u;
override SLOT_COUNT: u32 = 1u;
override PEDS_PER_SLOT: u32 = 16u;
override MAX_OBSTACLE_NEIGHBORS: u32 = 16u;
// ORCA parameters of every pedestrian (scenario-pedestrians.ts PEDESTRIAN_ORCA, PEDESTRIAN_RADIUS,
// ROBOT_DISC_RADIUS).
override PED_MAX_NEIGHBORS: u32 = 10u;
override PED_RADIUS: f32 = 0.3;
override ROBOT_RADIUS: f32 = 0.45;
override MAX_SPEED: f32 = 2.0;
override TIME_HORIZON: f32 = 2.0;
override TIME_HORIZON_OBST: f32 = 2.0;
override NEIGHBOR_DIST: f32 = 5.0;

// Behaviour constants: set from BEHAVIOUR_CONSTANTS in scenario-pedestrians.ts (the TS twin's own
// values) by gpu-pedestrian-batch.ts, so the two cannot drift; no defaults here on purpose.
override WAYPOINT_REACHED: f32;        // m: a waypoint closer than this is consumed
override EASE_TIME: f32;               // s: speed toward the last waypoint ≤ distance / EASE_TIME
override MOVING_SPEED: f32;            // m/s: faster than this turns the heading to the velocity
override LATERAL_MIN_ROBOT_SPEED: f32; // m/s
override QUEUE_SERVED_WALK: f32;       // m walked on after being served (less QUEUE_SERVED_SPACING per place)
override QUEUE_SERVED_SPACING: f32;    // m
override QUEUE_SERVED_SPEED: f32;      // m/s
override QUEUE_CLOSE_UP_SPEED: f32;    // m/s
override QUEUE_STEP_ASIDE: f32;        // m a served person steps aside (to PedParams.exitSide)
override QUEUE_STEP_AHEAD: f32;        // m it steps ahead while stepping aside
override HOLD_SPEED: f32;              // m/s: the fastest a standing pedestrian walks back to its anchor
override HOLD_TOLERANCE: f32;          // m: closer than this to its anchor it does not move
override COOPERATIVE: f32;             // ORCA responsibility of walkers (interact after its stay)
const NEVER: f32 = 3.0e38;           // "not set" time (the TS's Infinity)
const NO_NEIGHBOR: u32 = 0xffffffffu;

@group(0) @binding(0) var<storage, read> slots: array<SlotStep>;
@group(0) @binding(1) var<storage, read> pedParams: array<PedParams>;
@group(0) @binding(2) var<storage, read_write> pedStates: array<PedState>;
@group(0) @binding(3) var<storage, read_write> kinematics: array<PedKinematics>;
@group(0) @binding(4) var<storage, read> routes: array<vec2f>;
@group(0) @binding(5) var<storage, read_write> paths: array<vec2f>;
@group(0) @binding(6) var<storage, read> obstacleVertices: array<ObstacleVertex>;
@group(0) @binding(7) var<storage, read_write> nextVelocity: array<vec2f>;

fn threadIndex(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * CROWD_WORKGROUP_SIZE;
}

fn hasFlag(flags: u32, flag: u32) -> bool {
  return (flags & flag) != 0u;
}

// First element of pedestrian g's region of routes[] and paths[].
fn pathBase(g: u32) -> u32 {
  return slots[g / PEDS_PER_SLOT].pathBase + pedParams[g].pathOffset;
}

// Sets pedestrian g's path to the single waypoint w.
fn setPath1(g: u32, s: ptr<function, PedState>, w: vec2f) {
  paths[pathBase(g)] = w;
  (*s).pathStart = 0u;
  (*s).pathEnd = 1u;
}

// Sets pedestrian g's path to the waypoints w0, w1.
fn setPath2(g: u32, s: ptr<function, PedState>, w0: vec2f, w1: vec2f) {
  let base = pathBase(g);
  paths[base] = w0;
  paths[base + 1u] = w1;
  (*s).pathStart = 0u;
  (*s).pathEnd = 2u;
}

// Queue (TS queue()): only the head (place 0) is served, params.wait s after it started standing
// at the front: it steps aside (to p.exitSide of the line's direction) and walks off. A standing
// follower whose place ahead has emptied closes up to the first free place of the original line;
// its clock restarts on arrival.
fn queue(slot: u32, g: u32, p: PedParams, s: ptr<function, PedState>, k: ptr<function, PedKinematics>, dt: f32) {
  if (hasFlag((*k).flags, FLAG_TRIGGERED)) {
    return;
  }
  let begin = slot * PEDS_PER_SLOT;
  let count = slots[slot].pedCount;
  var ahead = 0u;
  for (var j = begin; j < begin + count; j++) {
    let q = pedParams[j];
    if (q.kind == KIND_QUEUING && q.group == p.group && q.order < p.order && !hasFlag(kinematics[j].flags, FLAG_TRIGGERED)) {
      ahead += 1u;
    }
  }
  if (f32(ahead) < (*s).place && (*s).pathStart == (*s).pathEnd) {
    // A place ahead freed: close up to the first free place of the original line.
    for (var j = begin; j < begin + count; j++) {
      let q = pedParams[j];
      if (q.kind == KIND_QUEUING && q.group == p.group && q.order == f32(ahead)) {
        setPath1(g, s, q.spawn);
        (*s).speed = QUEUE_CLOSE_UP_SPEED;
        (*s).place = f32(ahead);
        break;
      }
    }
  }
  if ((*s).pathStart != (*s).pathEnd) {
    (*s).clock = 0.0; // Walking to its place: the wait starts on arrival.
    return;
  }
  (*s).clock += dt;
  if ((*s).place == 0.0 && (*s).clock >= p.wait) {
    (*k).flags |= FLAG_TRIGGERED;
    let dir = vec2f(cos(p.heading), sin(p.heading)); // the line's direction
    let left = vec2f(-dir.y, dir.x);
    let aside = (*k).position + QUEUE_STEP_AHEAD * dir + p.exitSide * QUEUE_STEP_ASIDE * left;
    setPath2(g, s, aside, aside + (QUEUE_SERVED_WALK - QUEUE_SERVED_SPACING * p.order) * dir);
    (*s).speed = QUEUE_SERVED_SPEED;
  }
}

// Interact (TS interact()): once the object is reached (the last waypoint, within reach), stand
// there facing params.facing (responsibility 0) for params.duration s rounded to whole steps, then
// walk the exit points (routes[]) cooperatively.
fn interact(g: u32, p: PedParams, s: ptr<function, PedState>, k: ptr<function, PedKinematics>, dt: f32) {
  if ((*s).phase == INTERACT_APPROACH) {
    let left = (*s).pathEnd - (*s).pathStart;
    if (left == 0u || (left == 1u && length(p.point - (*k).position) < WAYPOINT_REACHED)) {
      (*s).phase = INTERACT_STAY;
      (*s).pathStart = 0u;
      (*s).pathEnd = 0u;
      (*s).clock = 0.0;
      (*s).responsibility = 0.0;
    }
  }
  if ((*s).phase == INTERACT_STAY) {
    if ((*s).clock >= p.wait - 0.5 * dt) {
      (*s).phase = INTERACT_LEAVE;
      (*s).responsibility = COOPERATIVE;
      let base = pathBase(g);
      for (var j = 0u; j < p.routeLen; j++) {
        paths[base + j] = routes[base + j];
      }
      (*s).pathStart = 0u;
      (*s).pathEnd = p.routeLen;
    } else {
      (*s).clock += dt;
      let toFacing = p.exit - (*k).position;
      (*k).heading = atan2(toFacing.y, toFacing.x);
    }
  }
}

// The behaviour state machine of pedestrian g (TS control()).
fn control(slot: u32, g: u32, st: SlotStep) {
  let p = pedParams[g];
  var s = pedStates[g];
  var k = kinematics[g];
  let distance = length(st.robotPosition - k.position);
  let fire = !hasFlag(k.flags, FLAG_TRIGGERED) && p.triggerDistance >= 0.0 && distance <= p.triggerDistance;
  if (fire) {
    k.flags |= FLAG_TRIGGERED;
  }
  switch p.kind {
    case KIND_OBSTRUCTING: {
      if (fire) {
        setPath1(g, &s, p.point);
      }
    }
    case KIND_FRONTAL, KIND_OVERTAKING, KIND_PED_CROSSING: {
      if (fire) {
        // The route without its first point (the spawn).
        let base = pathBase(g);
        for (var j = 1u; j < p.routeLen; j++) {
          paths[base + j - 1u] = routes[base + j];
        }
        s.pathStart = 0u;
        s.pathEnd = max(p.routeLen, 1u) - 1u;
      }
    }
    case KIND_LATERAL: {
      if (fire) {
        // Reach the crossing point when a constant-velocity robot would: start after the
        // difference in arrival times.
        let robotTime = length(p.point - st.robotPosition) / max(st.robotSpeed, LATERAL_MIN_ROBOT_SPEED);
        var pedTime = NEVER;
        if (s.speed > 0.0) {
          pedTime = length(p.point - k.position) / s.speed;
        }
        s.startAt = st.time + max(0.0, robotTime - pedTime);
      }
      if (st.time >= s.startAt) {
        setPath2(g, &s, p.point, p.exit);
        s.startAt = NEVER;
      }
    }
    case KIND_GESTURING: {
      if (fire) {
        k.flags = (k.flags & ~GESTURE_MASK) | (GESTURE_STOP << GESTURE_SHIFT);
      }
      if (hasFlag(k.flags, FLAG_TRIGGERED)) {
        let toRobot = st.robotPosition - k.position;
        k.heading = atan2(toRobot.y, toRobot.x);
      }
    }
    case KIND_QUEUING: {
      queue(slot, g, p, &s, &k, st.dt);
    }
    case KIND_INTERACT: {
      interact(g, p, &s, &k, st.dt);
    }
    default: {}
  }
  pedStates[g] = s;
  kinematics[g] = k;
}

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn updateBehaviours(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let slot = threadIndex(gid, nwg);
  if (slot >= SLOT_COUNT) {
    return;
  }
  let st = slots[slot];
  if (st.running == 0u) {
    return;
  }
  for (var i = 0u; i < st.pedCount; i++) {
    control(slot, slot * PEDS_PER_SLOT + i, st);
  }
}

// Pedestrian g's thread index is valid and its slot steps now.
fn stepsNow(g: u32) -> bool {
  let slot = g / PEDS_PER_SLOT;
  return slot < SLOT_COUNT && slots[slot].running != 0u && g % PEDS_PER_SLOT < slots[slot].pedCount;
}

// Preferred velocity toward the next waypoint (TS preferred()): consumes reached waypoints, eases
// into the last one; with an empty path, back toward the anchor (the hold rule: at most HOLD_SPEED,
// easing in, zero within HOLD_TOLERANCE).
fn preferred(g: u32, position: vec2f) -> vec2f {
  let s = pedStates[g];
  let base = pathBase(g);
  var start = s.pathStart;
  while (start < s.pathEnd && length(paths[base + start] - position) < WAYPOINT_REACHED) {
    start += 1u;
  }
  pedStates[g].pathStart = start;
  if (start == s.pathEnd) {
    let toAnchor = s.anchor - position;
    let da = length(toAnchor);
    if (da < HOLD_TOLERANCE) {
      return vec2f(0.0);
    }
    return toAnchor / da * min(HOLD_SPEED, da / EASE_TIME);
  }
  let toTarget = paths[base + start] - position;
  let d = length(toTarget);
  var speed = s.speed;
  if (s.pathEnd - start == 1u) {
    speed = min(s.speed, d / EASE_TIME);
  }
  return toTarget / d * speed;
}

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn computeVelocities(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let g = threadIndex(gid, nwg);
  if (!stepsNow(g)) {
    return;
  }
  let slot = g / PEDS_PER_SLOT;
  let st = slots[slot];
  let me = kinematics[g];
  let prefVelocity = preferred(g, me.position);
  // Responsibility 0: never yields to the robot (its disc is left out); every pedestrian avoids
  // obstacles and takes COOPERATIVE of each pedestrian-pedestrian avoidance.
  let yieldsToRobot = pedStates[g].responsibility > 0.0;
  let responsibility = select(COOPERATIVE, pedStates[g].responsibility, yieldsToRobot);
  // Agent neighbours: the robot (a candidate when it yields to it, NO_NEIGHBOR) and the slot's
  // pedestrians closer than NEIGHBOR_DIST, nearest PED_MAX_NEIGHBORS by (distSq, robot first, index).
  var agentCount = 0u;
  if (yieldsToRobot) {
    insertNeighbor(absSq(st.robotPosition - me.position), 0u, &agentCount, PED_MAX_NEIGHBORS);
  }
  let begin = slot * PEDS_PER_SLOT;
  for (var j = begin; j < begin + st.pedCount; j++) {
    if (j == g) {
      continue;
    }
    let d = absSq(kinematics[j].position - me.position);
    if (d < NEIGHBOR_DIST * NEIGHBOR_DIST) {
      insertNeighbor(d, j - begin + 1u, &agentCount, PED_MAX_NEIGHBORS);
    }
  }
  var agentNbr: array<u32, ORCA_LINE_CAPACITY>;
  for (var n = 0u; n < agentCount; n++) {
    agentNbr[n] = select(begin + nbrIndex[n] - 1u, NO_NEIGHBOR, nbrIndex[n] == 0u);
  }
  // Obstacle neighbours, then lines: obstacles first, then agents.
  let obstRange = TIME_HORIZON_OBST * MAX_SPEED + PED_RADIUS;
  let obstCount = obstacleNeighbors(me.position, vec2u(st.obstacleBegin, st.obstacleEnd), obstRange * obstRange, MAX_OBSTACLE_NEIGHBORS);
  let numObstLines = obstacleLines(me.position, me.velocity, PED_RADIUS, TIME_HORIZON_OBST, obstCount);
  var lineCount = numObstLines;
  for (var n = 0u; n < agentCount; n++) {
    let j = agentNbr[n];
    if (j == NO_NEIGHBOR) {
      orcaLines[lineCount] = agentLine(me.position, me.velocity, PED_RADIUS, TIME_HORIZON, responsibility, st.robotPosition, st.robotVelocity, ROBOT_RADIUS, st.dt);
    } else {
      let q = kinematics[j];
      orcaLines[lineCount] = agentLine(me.position, me.velocity, PED_RADIUS, TIME_HORIZON, responsibility, q.position, q.velocity, PED_RADIUS, st.dt);
    }
    lineCount += 1u;
  }
  var newVelocity = vec2f(0.0);
  let lineFail = linearProgram2(&orcaLines, lineCount, MAX_SPEED, prefVelocity, false, &newVelocity);
  if (lineFail < lineCount) {
    linearProgram3(&orcaLines, lineCount, numObstLines, lineFail, MAX_SPEED, &newVelocity);
  }
  nextVelocity[g] = newVelocity;
}

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn integrate(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let g = threadIndex(gid, nwg);
  if (!stepsNow(g)) {
    return;
  }
  var k = kinematics[g];
  k.velocity = nextVelocity[g];
  k.position += k.velocity * slots[g / PEDS_PER_SLOT].dt;
  if (length(k.velocity) > MOVING_SPEED) {
    k.heading = atan2(k.velocity.y, k.velocity.x);
  }
  let s = pedStates[g];
  k.flags &= ~FLAG_WALKING;
  if (s.pathStart < s.pathEnd) {
    // Walked this step: the anchor follows it (TS step()).
    pedStates[g].anchor = k.position;
    k.flags |= FLAG_WALKING;
  }
  kinematics[g] = k;
}
