/**
 * Workgroup counts for 1D problems larger than `maxComputeWorkgroupsPerDimension` (65,535 on most
 * adapters): the grid is folded into 2D and kernels linearise it as
 * `i = gid.x + gid.y * num_workgroups.x * WORKGROUP_SIZE`.
 *
 * @throws Error when even a square 2D grid cannot cover `items`.
 */
export function dispatchSize1d(items: number, workgroupSize: number, maxPerDim: number): [number, number] {
  const groups = Math.ceil(items / workgroupSize);
  if (groups <= maxPerDim) return [Math.max(groups, 1), 1];
  const y = Math.ceil(groups / maxPerDim);
  if (y > maxPerDim) throw new Error(`dispatchSize1d: ${items} items need more than ${maxPerDim}² workgroups`);
  return [maxPerDim, y];
}
