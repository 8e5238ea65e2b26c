import { describe, expect, it } from 'vitest';
import { NO_GPU_WORK, statsLine } from './gpu-stats';

describe('statsLine', () => {
  it('prints the work per control step as key=value pairs after `stats:`', () => {
    const line = statsLine({ submissions: 70, computePasses: 85, renderPasses: 20, readbackBytes: 1601, pipelinesCreated: 17 }, 10);
    expect(line).toBe('stats: submissions/step=7.00 computePasses/step=8.50 renderPasses/step=2.00 readbackBytes/step=160.10 pipelinesCreated=17 controlSteps=10');
  });

  it('prints zeros per step when no control step ran', () => {
    expect(statsLine(NO_GPU_WORK, 0)).toBe('stats: submissions/step=0.00 computePasses/step=0.00 renderPasses/step=0.00 readbackBytes/step=0.00 pipelinesCreated=0 controlSteps=0');
  });
});
