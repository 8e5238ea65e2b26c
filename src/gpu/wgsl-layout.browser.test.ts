/** CAMERA_LAYOUT against `Camera` in shaders/common/camera.wgsl. A field moved in WGSL without its TS twin fails here. */
import { describe, it } from 'vitest';
import { CAMERA_LAYOUT } from './camera';
import { expectWgslLayout } from './wgsl-layout-check';
import cameraWgsl from '../../shaders/common/camera.wgsl?raw';

describe('WGSL struct layouts', () => {
  it('Camera matches CAMERA_LAYOUT', () => expectWgslLayout(cameraWgsl, 'Camera', CAMERA_LAYOUT));
});
