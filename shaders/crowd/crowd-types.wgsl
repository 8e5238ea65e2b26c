// Structs shared by the crowd kernels (neighbor-grid.wgsl, orca.wgsl, behaviours.wgsl); prepended by the loader.
// Host-side twins: src/crowd/gpu-layout.ts (checked by crowd-layout.browser.test.ts).
// World frame Z up; the crowd lives in the x-y plane. SI units.

// Per-agent constants (RVO2 addAgent parameters + goal), 48 bytes.
struct AgentParams {
  radius: f32,          // m
  maxSpeed: f32,        // m/s
  neighborDist: f32,    // m
  maxNeighbors: u32,    // clamped to MAX_NEIGHBORS
  timeHorizon: f32,     // s
  timeHorizonObst: f32, // s
  responsibility: f32,  // share of avoidance, 0.5 = ORCA
  prefSpeed: f32,       // m/s
  goal: vec2f,          // m
  goalRadius: f32,      // m
  env: u32,             // environment index
}

// Simulation state of one agent, double-buffered (read A, write B, swap), 16 bytes.
struct AgentState {
  position: vec2f, // m
  velocity: vec2f, // m/s
}

// One obstacle vertex = the edge to vertex `next` (RVO2 Obstacle), 32 bytes.
struct ObstacleVertex {
  point: vec2f,
  unitDir: vec2f,
  next: u32,
  prev: u32,
  isConvex: u32, // 1 = convex (RVO2 isConvex_)
  env: u32,
}

// Per-dispatch parameters; one copy per step slot (dynamic uniform offset), 48 bytes.
struct CrowdParams {
  agentCount: u32,
  stateIndex: u32,        // state k read by this step; its metrics go to metrics[k]
  timeStep: f32,          // s
  cellSize: f32,          // m, >= every neighborDist
  gridOrigin: vec2f,      // m, lower-left corner of cell (0, 0)
  gridWidth: u32,         // cells along x per env
  gridHeight: u32,        // cells along y per env
  cellCount: u32,         // envCount * gridWidth * gridHeight
  envCount: u32,
  overlapTolerance: f32,  // m, see crowd-metrics.ts
  pad0: u32,
}

// Aggregates of one state (see crowd-metrics.ts), 16 bytes.
struct StateMetrics {
  minPairDistance: atomic<u32>, // f32 bits of a non-negative distance (orders as u32), m
  overlapAgents: atomic<u32>,
  reachedAgents: atomic<u32>,
  speedSumMilli: atomic<u32>,   // sum of round(1000 * speed)
}
