/**
 * Every WGSL kernel of the project, the shared files prepended to it (in order) and their sources:
 * the one list of what each kernel is compiled from. Paths are relative to `shaders/`. The shared
 * files hold structs and helpers used by several kernels; tuning values are `override` constants
 * set through the pipeline's `constants`, never text substitution.
 */
import appBox from '../../shaders/app/box.wgsl?raw';
import appPresent from '../../shaders/app/present.wgsl?raw';
import commonCamera from '../../shaders/common/camera.wgsl?raw';
import crowdBehaviours from '../../shaders/crowd/behaviours.wgsl?raw';
import crowdCrowdTypes from '../../shaders/crowd/crowd-types.wgsl?raw';
import crowdGridCell from '../../shaders/crowd/grid-cell.wgsl?raw';
import crowdLinearProgram from '../../shaders/crowd/linear-program.wgsl?raw';
import crowdNeighborGrid from '../../shaders/crowd/neighbor-grid.wgsl?raw';
import crowdOrcaCore from '../../shaders/crowd/orca-core.wgsl?raw';
import crowdOrca from '../../shaders/crowd/orca.wgsl?raw';
import crowdPedestrianTypes from '../../shaders/crowd/pedestrian-types.wgsl?raw';
import gpuOpaqueQuad from '../../shaders/gpu/opaque-quad.wgsl?raw';
import gpuPrefixScan from '../../shaders/gpu/prefix-scan.wgsl?raw';
import gpuRadixSort from '../../shaders/gpu/radix-sort.wgsl?raw';
import gpuSplitRadixSort from '../../shaders/gpu/split-radix-sort.wgsl?raw';
import humansJoints from '../../shaders/humans/joints.wgsl?raw';
import humansPedestrianTypes from '../../shaders/humans/pedestrian-types.wgsl?raw';
import humansPedestrian from '../../shaders/humans/pedestrian.wgsl?raw';
import humansShape from '../../shaders/humans/shape.wgsl?raw';
import humansSkin from '../../shaders/humans/skin.wgsl?raw';
import humansSkinningTypes from '../../shaders/humans/skinning-types.wgsl?raw';
import policyObservation from '../../shaders/policy/observation.wgsl?raw';
import sensorsRain from '../../shaders/sensors/rain.wgsl?raw';
import splatsCorners from '../../shaders/splats/corners.wgsl?raw';
import splatsPreprocess from '../../shaders/splats/preprocess.wgsl?raw';
import splatsRender from '../../shaders/splats/render.wgsl?raw';
import splatsSplatTypes from '../../shaders/splats/splat-types.wgsl?raw';

/** The source of every WGSL file in `shaders/`, by path relative to it. */
export const WGSL_SOURCES: Readonly<Record<string, string>> = {
  'app/box.wgsl': appBox,
  'app/present.wgsl': appPresent,
  'common/camera.wgsl': commonCamera,
  'crowd/behaviours.wgsl': crowdBehaviours,
  'crowd/crowd-types.wgsl': crowdCrowdTypes,
  'crowd/grid-cell.wgsl': crowdGridCell,
  'crowd/linear-program.wgsl': crowdLinearProgram,
  'crowd/neighbor-grid.wgsl': crowdNeighborGrid,
  'crowd/orca-core.wgsl': crowdOrcaCore,
  'crowd/orca.wgsl': crowdOrca,
  'crowd/pedestrian-types.wgsl': crowdPedestrianTypes,
  'gpu/opaque-quad.wgsl': gpuOpaqueQuad,
  'gpu/prefix-scan.wgsl': gpuPrefixScan,
  'gpu/radix-sort.wgsl': gpuRadixSort,
  'gpu/split-radix-sort.wgsl': gpuSplitRadixSort,
  'humans/joints.wgsl': humansJoints,
  'humans/pedestrian-types.wgsl': humansPedestrianTypes,
  'humans/pedestrian.wgsl': humansPedestrian,
  'humans/shape.wgsl': humansShape,
  'humans/skin.wgsl': humansSkin,
  'humans/skinning-types.wgsl': humansSkinningTypes,
  'policy/observation.wgsl': policyObservation,
  'sensors/rain.wgsl': sensorsRain,
  'splats/corners.wgsl': splatsCorners,
  'splats/preprocess.wgsl': splatsPreprocess,
  'splats/render.wgsl': splatsRender,
  'splats/splat-types.wgsl': splatsSplatTypes,
};

/** Each kernel (a WGSL file with entry points) and the shared files prepended to it, in order. */
export const KERNEL_PRELUDES = {
  'app/box.wgsl': ['common/camera.wgsl'],
  'app/present.wgsl': ['common/camera.wgsl'],
  'crowd/behaviours.wgsl': ['crowd/crowd-types.wgsl', 'crowd/pedestrian-types.wgsl', 'crowd/linear-program.wgsl', 'crowd/orca-core.wgsl'],
  'crowd/neighbor-grid.wgsl': ['crowd/crowd-types.wgsl', 'crowd/grid-cell.wgsl'],
  'crowd/orca.wgsl': ['crowd/crowd-types.wgsl', 'crowd/grid-cell.wgsl', 'crowd/linear-program.wgsl', 'crowd/orca-core.wgsl'],
  'gpu/opaque-quad.wgsl': ['common/camera.wgsl'],
  'gpu/prefix-scan.wgsl': [],
  'gpu/radix-sort.wgsl': [],
  'gpu/split-radix-sort.wgsl': [],
  'humans/joints.wgsl': ['humans/skinning-types.wgsl'],
  'humans/pedestrian.wgsl': ['common/camera.wgsl', 'humans/pedestrian-types.wgsl'],
  'humans/shape.wgsl': ['humans/skinning-types.wgsl'],
  'humans/skin.wgsl': ['humans/skinning-types.wgsl'],
  'policy/observation.wgsl': [],
  'sensors/rain.wgsl': [],
  'splats/corners.wgsl': ['common/camera.wgsl', 'splats/splat-types.wgsl'],
  'splats/preprocess.wgsl': ['common/camera.wgsl', 'splats/splat-types.wgsl'],
  'splats/render.wgsl': [],
} as const satisfies Record<string, readonly string[]>;

/** A kernel's path relative to `shaders/`. */
export type KernelPath = keyof typeof KERNEL_PRELUDES;

/** One file of a module's concatenated source. */
export interface WgslPart {
  path: string;
  code: string;
}

/** The parts a kernel is compiled from: its preludes in order, then the kernel itself. */
export function kernelParts(kernel: KernelPath): WgslPart[] {
  return [...KERNEL_PRELUDES[kernel], kernel].map((path) => ({ path, code: WGSL_SOURCES[path] }));
}
