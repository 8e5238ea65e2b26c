// Structs of the GPU pedestrian batch (behaviours.wgsl); prepended after crowd-types.wgsl.
// Host-side twins: src/crowd/gpu-layout.ts PED_*_LAYOUT / SLOT_STEP_LAYOUT (checked by
// crowd-layout.browser.test.ts). Positions are relative to the slot's origin (the host keeps it in
// float64), metres; velocities m/s; times s; headings radians from +x.

// Behaviour kinds (src/crowd/gpu-layout.ts PEDESTRIAN_KINDS, same order).
const KIND_OBSTRUCTING: u32 = 0u;
const KIND_CONVERSING: u32 = 1u;
const KIND_QUEUING: u32 = 2u;
const KIND_FRONTAL: u32 = 3u;
const KIND_LATERAL: u32 = 4u;
const KIND_OVERTAKING: u32 = 5u;
const KIND_PED_CROSSING: u32 = 6u;
const KIND_GESTURING: u32 = 7u;
const KIND_INTERACT: u32 = 8u;

// PedState.phase of an interact pedestrian (gpu-layout.ts PED_INTERACT_PHASES, same order).
const INTERACT_APPROACH: u32 = 0u;  // walking its route to the object
const INTERACT_STAY: u32 = 1u;      // standing at the object, facing it (clock counts the stay)
const INTERACT_LEAVE: u32 = 2u;     // walking the exit points

// PedKinematics.flags: bit 0 triggered, bits 1..2 gesture (0 none, 1 stop, 2 talk), bit 3 walking
// (its path was not empty after the step).
const FLAG_TRIGGERED: u32 = 1u;
const FLAG_WALKING: u32 = 8u;
const GESTURE_SHIFT: u32 = 1u;
const GESTURE_MASK: u32 = 6u;
const GESTURE_STOP: u32 = 1u;

// Per-pedestrian constants from its PedestrianSpec, written by load, 64 bytes.
struct PedParams {
  spawn: vec2f,          // spec.spawn without jitter (queue places), m
  point: vec2f,          // obstructing params.target, lateral params.crossPoint, interact params.object, m
  exit: vec2f,           // lateral params.exit, interact params.facing, m
  kind: u32,             // KIND_*
  group: u32,            // spec.group, 0xffffffff when absent
  order: f32,            // queuing params.order
  wait: f32,             // queuing params.wait, interact params.duration, s
  triggerDistance: f32,  // m; < 0 when the spec has none (never fires)
  routeLen: u32,         // points in routes[]: spec.route; interact: its params.exit points
  pathOffset: u32,       // its region of routes[]/paths[] starts at SlotStep.pathBase + pathOffset
  exitSide: f32,         // queuing params.exitSide: +1 steps aside to the left when served, -1 right
  heading: f32,          // spec.heading (a queue's direction), rad
  pad0: u32,
}

// Behaviour state of one pedestrian (read-write), 40 bytes. The waypoints still to walk are
// paths[base + pathStart .. base + pathEnd), base = SlotStep.pathBase + PedParams.pathOffset.
struct PedState {
  speed: f32,           // walking speed for the path, m/s
  responsibility: f32,  // ORCA share; 0 = keeps its preferred velocity
  clock: f32,           // queuing: time standing at its place; interact: time stayed, s
  startAt: f32,         // lateral: when to start the pending crossing, s (NEVER = not set)
  pathStart: u32,
  pathEnd: u32,
  place: f32,           // queuing: the place in line it stands at / walks to (starts at order)
  phase: u32,           // interact: INTERACT_* (starts at INTERACT_APPROACH)
  anchor: vec2f,        // where it stands while its path is empty (the hold rule), m
}

// What the host reads back every step, 24 bytes.
struct PedKinematics {
  position: vec2f,  // m, relative to the slot origin
  velocity: vec2f,  // m/s
  heading: f32,     // rad
  flags: u32,       // FLAG_TRIGGERED | gesture << GESTURE_SHIFT
}

// One slot's step inputs, uploaded every step (one writeBuffer for all slots), 48 bytes.
struct SlotStep {
  robotPosition: vec2f,   // m, relative to the slot origin
  robotVelocity: vec2f,   // v·(cos yaw, sin yaw), m/s
  robotSpeed: f32,        // v, m/s
  time: f32,              // episode time after this step, s
  dt: f32,                // s
  pedCount: u32,          // pedestrians loaded in the slot
  running: u32,           // 1: the slot steps now
  obstacleBegin: u32,     // [begin, end) of its obstacle vertices (absolute indices)
  obstacleEnd: u32,
  pathBase: u32,          // first element of the slot's region of routes[] and paths[]
}
