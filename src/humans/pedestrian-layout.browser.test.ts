/** PEDESTRIAN_*_LAYOUT against the structs in shaders/humans/pedestrian-types.wgsl. */
import { describe, it } from 'vitest';
import { expectWgslLayout } from '../gpu/wgsl-layout-check';
import typesWgsl from '../../shaders/humans/pedestrian-types.wgsl?raw';
import { PEDESTRIAN_INSTANCE_LAYOUT, PEDESTRIAN_LIGHTING_LAYOUT } from './pedestrian-appearance';

describe('pedestrian pass WGSL struct layouts', () => {
  it('PedestrianInstance matches the host layout', () => expectWgslLayout(typesWgsl, 'PedestrianInstance', PEDESTRIAN_INSTANCE_LAYOUT));
  it('PedestrianLighting matches the host layout', () => expectWgslLayout(typesWgsl, 'PedestrianLighting', PEDESTRIAN_LIGHTING_LAYOUT));
});
