/**
 * The policy module's page-side surface: the Policy interface, manifests, the observation pass, the
 * ONNX policy and the remote policy. Node-only parts are imported directly: `remote-server.ts`
 * (the WebSocket relay) and `examples/make-example-models.ts` (the example policies; written by src/cli/policy-examples.ts).
 */
export type { CameraMount, Policy, PolicyAction, PolicyObservation } from './policy';
export {
  contextStride, DEFAULT_CAMERA_MOUNT, MANIFEST_FORMAT, ManifestError, observationDims, parsePolicyManifest, ringSlots,
  type PolicyManifest,
} from './manifest';
export { checkModelAgainstManifest, expectedInputs, expectedOutput, ModelMismatchError } from './model-check';
export { ObservationPass, OBSERVATION_PARAMS_LAYOUT } from './observation-pass';
export { observationConfig, resizeNormalizeReference, ObservationRingReference, type ObservationConfig } from './observation-reference';
export { OnnxPolicy, type OnnxPolicyOptions } from './onnx-policy';
export { fetchPolicyFiles, manifestUrlFor, type PolicyFiles } from './load-policy';
export { decodePolicyOutput } from './policy-output';
export { DiffusionNoise } from './diffusion-noise';
export { ORT_RUN_QUEUE, SerialQueue } from './serial-queue';
export { getOrt } from './ort-runtime';
export { RemotePolicy, RemotePolicyLink, type RemotePolicyOptions } from './remote-policy';
export { REMOTE_PROTOCOL } from './remote-protocol';
