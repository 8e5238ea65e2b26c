import { describe, expect, it } from 'vitest';
import { difference, intersection, union } from './clipping';
import {
  circleRing, convexRingsOverlap, multiPolygonArea, pointInPolygon, pointSegmentDistance, polygonProblem, rectRing,
  ringProblem, segmentIntersection, segmentSegmentDistance, signedArea, toCCW, type Ring,
} from './geometry';
import { offsetPolyline, polylineLength, projectOnPolyline, sampleAt } from './polyline';

const square = (x0: number, y0: number, s: number): Ring => [[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]];

describe('geometry', () => {
  it('orientation and area', () => {
    expect(signedArea(square(0, 0, 2))).toBe(4);
    expect(signedArea(square(0, 0, 2).reverse())).toBe(-4);
    expect(signedArea(toCCW(square(0, 0, 2).reverse()))).toBe(4);
    expect(signedArea(rectRing(5, 5, 4, 2, 0.7))).toBeCloseTo(8, 12);
    expect(signedArea(circleRing(0, 0, 1, 1000))).toBeCloseTo(Math.PI, 4);
  });

  it('simple-ring validity', () => {
    expect(ringProblem(square(0, 0, 1))).toBeNull();
    expect(ringProblem([[0, 0], [2, 2], [2, 0], [0, 1]])).toMatch(/intersect/); // bow-tie
    expect(ringProblem([[0, 0], [1, 0], [1, 0], [0, 1]])).toMatch(/coincide/);
    expect(ringProblem([[0, 0], [1, 0], [2, 0]])).toMatch(/zero area/);
    expect(ringProblem([[0, 0], [2, 0], [1, 0], [1, 1]])).toMatch(/overlap|intersect/); // folds back
    expect(polygonProblem({ outer: square(0, 0, 4), holes: [square(1, 1, 1).reverse()] })).toBeNull();
    expect(polygonProblem({ outer: square(0, 0, 4).reverse(), holes: [] })).toMatch(/counter-clockwise/);
    expect(polygonProblem({ outer: square(0, 0, 4), holes: [square(1, 1, 1)] })).toMatch(/not clockwise/);
  });

  it('point in polygon with a hole', () => {
    const p = { outer: square(0, 0, 4), holes: [square(1, 1, 2).reverse()] };
    expect(pointInPolygon(0.5, 0.5, p)).toBe(true);
    expect(pointInPolygon(2, 2, p)).toBe(false);
    expect(pointInPolygon(5, 2, p)).toBe(false);
  });

  it('distances and intersections', () => {
    expect(pointSegmentDistance(0, 1, [-1, 0], [1, 0])).toBe(1);
    expect(pointSegmentDistance(3, 4, [0, 0], [0, 0])).toBe(5);
    expect(segmentSegmentDistance([0, 0], [1, 0], [0, 2], [1, 2])).toBe(2);
    expect(segmentSegmentDistance([0, 0], [2, 2], [0, 2], [2, 0])).toBe(0);
    expect(segmentIntersection([0, 0], [2, 2], [0, 2], [2, 0])).toEqual([0.5, 0.5]);
    expect(segmentIntersection([0, 0], [1, 0], [0, 1], [1, 1])).toBeNull();
  });

  it('convex overlap (SAT)', () => {
    expect(convexRingsOverlap(square(0, 0, 1), square(0.5, 0.5, 1))).toBe(true);
    expect(convexRingsOverlap(square(0, 0, 1), square(1, 0, 1))).toBe(false); // touching
    expect(convexRingsOverlap(square(0, 0, 1), rectRing(2, 2, 1, 1, 0.3))).toBe(false);
  });

  it('boolean operations keep CCW outers and CW holes', () => {
    const u = union([{ outer: square(0, 0, 2), holes: [] }], [{ outer: square(1, 0, 2), holes: [] }]);
    expect(u).toHaveLength(1);
    expect(multiPolygonArea(u)).toBeCloseTo(6, 9);
    const d = difference([{ outer: square(0, 0, 4), holes: [] }], [{ outer: square(1, 1, 2), holes: [] }]);
    expect(d).toHaveLength(1);
    expect(d[0].holes).toHaveLength(1);
    expect(polygonProblem(d[0])).toBeNull();
    expect(multiPolygonArea(d)).toBeCloseTo(12, 9);
    expect(multiPolygonArea(intersection([{ outer: square(0, 0, 2), holes: [] }], [{ outer: square(1, 1, 2), holes: [] }]))).toBeCloseTo(1, 9);
  });

  it('polylines: sampling, offsets, projection', () => {
    const line: Ring = [[0, 0], [10, 0], [10, 10]];
    expect(polylineLength(line)).toBe(20);
    expect(sampleAt(line, 15).p).toEqual([10, 5]);
    expect(sampleAt(line, 15).t).toEqual([0, 1]);
    const off = offsetPolyline(line, () => 1);
    expect(off[0]).toEqual([0, 1]);
    expect(off[2][0]).toBeCloseTo(9, 12);
    expect(off[1][0]).toBeCloseTo(9, 12); // miter joint
    expect(off[1][1]).toBeCloseTo(1, 12);
    const pr = projectOnPolyline(line, 12, 5);
    expect(pr.s).toBeCloseTo(15, 12);
    expect(pr.d).toBeCloseTo(2, 12);
    expect(pr.side).toBe(-1);
  });
});
