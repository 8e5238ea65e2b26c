/**
 * The arena agent's first-person view in the page, rendered as `npm run arena` renders it for image
 * agents (the headless page's world view, src/sensors/headless-api.ts): the procedural city baked
 * chunk by chunk around the eye (32 m chunks, 60 m view distance), the splats drawn offscreen and
 * composited over the sky, read back as RGBA8. One renderer per page, re-aimed each step.
 */
import type { PinholeCamera, Vec3 } from '../../gpu/camera';
import { raceDeviceLoss, type AcquiredDevice } from '../../gpu/device';
import { toRgba8 } from '../../gpu/readback';
import { OffscreenSplatView } from '../../splats/offscreen';
import { ChunkedWorld, DEFAULT_CHUNK_SIZE, DEFAULT_VIEW_DISTANCE } from '../../world/bake/chunks';
import { compositeSky } from '../../world/bake/sky';
import type { World } from '../../world/world';

/** The agent camera: 360CityArena-sized frames, 60° vertical field of view. */
export const ARENA_VIEW = { width: 640, height: 480, fovYDeg: 60 } as const;

/** A camera pose: the eye and a point it looks at, metres, world frame (Z up). */
export interface ViewPose {
  eye: Vec3;
  target: Vec3;
}

/** The point one metre along the camera's yaw (rad from +x) and pitch (rad up) from `eye`. */
export function poseOf(p: { eye: Vec3; yaw: number; pitch: number }): ViewPose {
  const [x, y, z] = p.eye;
  return { eye: p.eye, target: [x + Math.cos(p.yaw) * Math.cos(p.pitch), y + Math.sin(p.yaw) * Math.cos(p.pitch), z + Math.sin(p.pitch)] };
}

/** A first-person renderer of one world (see the module comment). */
export class ArenaViewRenderer {
  private uploaded = false;

  private constructor(
    private readonly acquired: AcquiredDevice,
    private readonly chunks: ChunkedWorld,
    private readonly view: OffscreenSplatView,
    readonly width: number,
    readonly height: number,
    readonly fovYDeg: number,
  ) {}

  /** Creates the splat renderer and its target on `acquired`'s device. */
  static async create(acquired: AcquiredDevice, world: World, size: { width: number; height: number; fovYDeg: number } = ARENA_VIEW): Promise<ArenaViewRenderer> {
    const view = await raceDeviceLoss(acquired, OffscreenSplatView.create(acquired.device, size.width, size.height));
    return new ArenaViewRenderer(acquired, new ChunkedWorld(world, DEFAULT_CHUNK_SIZE), view, size.width, size.height, size.fovYDeg);
  }

  /** The camera of a pose. */
  camera(pose: ViewPose): PinholeCamera {
    return { eye: pose.eye, target: pose.target, up: [0, 0, 1], fovYDeg: this.fovYDeg, width: this.width, height: this.height, near: 0.05, far: 300 };
  }

  /**
   * RGBA8 pixels (opaque, top row first) of the view from `pose`.
   *
   * @throws the device-loss message, or whatever the renderer throws.
   */
  async render(pose: ViewPose): Promise<Uint8ClampedArray> {
    const cam = this.camera(pose);
    const v = this.chunks.view(cam, { viewDistance: DEFAULT_VIEW_DISTANCE });
    if (v.cloud.count === 0) return toRgba8(compositeSky(new Float32Array(cam.width * cam.height * 4), cam));
    if (v.changed || !this.uploaded) await raceDeviceLoss(this.acquired, this.view.setCloud(v.cloud, `world ${this.chunks.world.seed}`));
    this.uploaded = true;
    return toRgba8(compositeSky(await raceDeviceLoss(this.acquired, this.view.render(cam)), cam));
  }

  destroy(): void {
    this.view.destroy();
  }
}
