// Grid-cell addressing of the crowd's neighbour grid; prepended (after crowd-types.wgsl) to the
// kernels that declare `params: CrowdParams` (neighbor-grid.wgsl, orca.wgsl).

// Grid cell of a position in environment env (clamped: 1-Lipschitz per axis, so agents within
// one cellSize stay within one cell of each other and the 3x3 search stays exact).
fn cellCoord(p: vec2f) -> vec2i {
  let c = vec2i(floor((p - params.gridOrigin) / params.cellSize));
  return clamp(c, vec2i(0), vec2i(i32(params.gridWidth) - 1, i32(params.gridHeight) - 1));
}

fn cellIndex(env: u32, c: vec2i) -> u32 {
  return (env * params.gridHeight + u32(c.y)) * params.gridWidth + u32(c.x);
}
