/** The splat buffer layouts of gpu-layout.ts against the structs of shaders/splats/splat-types.wgsl. */
import { describe, it } from 'vitest';
import { expectWgslLayout } from '../gpu/wgsl-layout-check';
import { PROJECTED_SPLAT_LAYOUT, SPLAT_FRAME_LAYOUT, SPLAT_LAYOUT } from './gpu-layout';
import splatTypesWgsl from '../../shaders/splats/splat-types.wgsl?raw';

describe('splat WGSL struct layouts', () => {
  it('Splat matches SPLAT_LAYOUT', () => expectWgslLayout(splatTypesWgsl, 'Splat', SPLAT_LAYOUT));
  it('ProjectedSplat matches PROJECTED_SPLAT_LAYOUT', () => expectWgslLayout(splatTypesWgsl, 'ProjectedSplat', PROJECTED_SPLAT_LAYOUT));
  it('SplatFrame matches SPLAT_FRAME_LAYOUT', () => expectWgslLayout(splatTypesWgsl, 'SplatFrame', SPLAT_FRAME_LAYOUT));
});
