/** Placeholder replaced below. */
export interface SplatBenchRequest { n: number }
export async function runSplatBenchmark(_req: SplatBenchRequest): Promise<unknown> { return null; }
