// Uniform-grid neighbour structure for the crowd, rebuilt every step (counting sort by cell).
// Prepended: crowd/crowd-types.wgsl, crowd/grid-cell.wgsl.
//
// Steps, driven by src/crowd/neighbor-grid-pass.ts:
//   0. (host) clearBuffer(cellCounts)
//   1. countAgents    agentCell[i] = cell of agent i; agentRank[i] = atomicAdd(cellCounts[cell], 1)
//   2. (PrefixScan)   cellCounts[0 .. cellCount] -> exclusive scan = cellStart (last = agentCount)
//   3. scatterAgents  cellAgents[cellStart[agentCell[i]] + agentRank[i]] = i
// The order of agents inside a cell depends on atomic order; consumers must not depend on it
// (orca.wgsl orders neighbours by (distance, index)).
//
// Bindings (group 0): 0 params (uniform, dynamic offset), 1 agents, 2 states (current),
// 3 cellCounts / cellStart (same buffer), 4 agentCell, 5 agentRank, 6 cellAgents.

override CROWD_WORKGROUP_SIZE: u32 = 64u;

@group(0) @binding(0) var<uniform> params: CrowdParams;
@group(0) @binding(1) var<storage, read> agents: array<AgentParams>;
@group(0) @binding(2) var<storage, read> states: array<AgentState>;
@group(0) @binding(3) var<storage, read_write> cellCounts: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> cellStart: array<u32>;
@group(0) @binding(4) var<storage, read_write> agentCell: array<u32>;
@group(0) @binding(5) var<storage, read_write> agentRank: array<u32>;
@group(0) @binding(6) var<storage, read_write> cellAgents: array<u32>;

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn countAgents(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * CROWD_WORKGROUP_SIZE;
  if (i >= params.agentCount) {
    return;
  }
  let cell = cellIndex(agents[i].env, cellCoord(states[i].position));
  agentCell[i] = cell;
  agentRank[i] = atomicAdd(&cellCounts[cell], 1u);
}

@compute @workgroup_size(CROWD_WORKGROUP_SIZE)
fn scatterAgents(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * CROWD_WORKGROUP_SIZE;
  if (i >= params.agentCount) {
    return;
  }
  cellAgents[cellStart[agentCell[i]] + agentRank[i]] = i;
}
