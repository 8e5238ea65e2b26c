/** SKINNING_PARAMS_LAYOUT against `SkinningParams` in shaders/humans/skinning-types.wgsl. */
import { describe, it } from 'vitest';
import { expectWgslLayout } from '../gpu/wgsl-layout-check';
import typesWgsl from '../../shaders/humans/skinning-types.wgsl?raw';
import { SKINNING_PARAMS_LAYOUT } from './skinning-layout';

describe('humans WGSL struct layouts', () => {
  it('SkinningParams matches SKINNING_PARAMS_LAYOUT', () => expectWgslLayout(typesWgsl, 'SkinningParams', SKINNING_PARAMS_LAYOUT));
});
