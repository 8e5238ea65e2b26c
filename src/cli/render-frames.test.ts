import { describe, expect, it } from 'vitest';
import { orbitCamera, type PinholeCamera } from '../gpu/camera';
import { frameOutputs, parsePedestrianAt } from './render-frames';

describe('render frames', () => {
  it('names one frame OUT and a sequence OUT-000.png, OUT-001.png, … (more digits past 1000)', () => {
    expect(frameOutputs('out/city.png')).toEqual(['out/city.png']);
    expect(frameOutputs('out/city.png', 3)).toEqual(['out/city-000.png', 'out/city-001.png', 'out/city-002.png']);
    expect(frameOutputs('a.PNG', 1)).toEqual(['a-000.png']);
    const many = frameOutputs('o.png', 1001);
    expect(many[0]).toBe('o-0000.png');
    expect(many[1000]).toBe('o-1000.png');
  });

  it('parses --pedestrian-at x,y[,heading], collecting repeated uses, and refuses anything else', () => {
    expect(parsePedestrianAt('1.5,-2')).toEqual([{ x: 1.5, y: -2 }]);
    expect(parsePedestrianAt('3,4,1.57', [{ x: 1.5, y: -2 }])).toEqual([{ x: 1.5, y: -2 }, { x: 3, y: 4, heading: 1.57 }]);
    for (const bad of ['1', '1,2,3,4', '1,,2', 'a,b', '1,2,', '1,Infinity']) expect(() => parsePedestrianAt(bad), bad).toThrow(/expected x,y or x,y,heading/);
  });

  it('orbits the eye about the target around the up axis, counter-clockwise seen from above', () => {
    const cam: PinholeCamera = { eye: [13, 2, 3], target: [3, 2, 1], up: [0, 0, 1], fovYDeg: 60, width: 4, height: 3, near: 0.1, far: 100 };
    const quarter = orbitCamera(cam, 90);
    expect(quarter.eye[0]).toBeCloseTo(3, 12);
    expect(quarter.eye[1]).toBeCloseTo(12, 12);
    expect(quarter.eye[2]).toBeCloseTo(3, 12);
    expect(quarter.target).toEqual(cam.target);
    expect(orbitCamera(cam, 0)).toEqual(cam);
    // Distance to the target and height along up are kept at any angle.
    const c = orbitCamera(cam, 37.5);
    expect(Math.hypot(c.eye[0] - 3, c.eye[1] - 2)).toBeCloseTo(10, 12);
    expect(c.eye[2]).toBeCloseTo(3, 12);
  });
});
