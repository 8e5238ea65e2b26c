/** The embedded default city: world → Gaussian-splat baker, chunked view selection, scanned-scene files. */
export * from './splat-builder';
export * from './noise';
export * from './ground';
export * from './buildings';
export * from './furniture';
export * from './chunks';
export * from './default-camera';
export * from './sky';
export * from './scene-file';
export * from '../../splats/sh-rotation';
