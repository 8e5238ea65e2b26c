/** The sidewalk world: procedural generator, zone/obstacle/route queries and the map view. */
export * from './geometry';
export * from './profile';
export * from './network';
export * from './crosswalks';
export * from './zones';
export * from './objects';
export * from './navgraph';
export * from './blocks';
export * from './world';
export * from './queries';
export * from './routes';
export * from './map-render';
export { MultiPolygonIndex, BoxGrid } from './spatial-index';
export { union, difference, intersection } from './clipping';
