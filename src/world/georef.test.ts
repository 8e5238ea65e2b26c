import { describe, expect, it } from 'vitest';
import { DEFAULT_GEOREFERENCE, ecefToGeodetic, geodeticToEcef, geodeticToWorld, headingToYaw, parseGeoreference, WGS84_A, WGS84_F, worldToGeodetic, yawToHeading } from './georef';

const DEG = Math.PI / 180;
const e2 = WGS84_F * (2 - WGS84_F);

describe('georeference', () => {
  it('puts the equator and prime meridian on the ECEF x axis and the pole on z', () => {
    const q = geodeticToEcef({ lat: 0, lon: 0, height: 0 });
    expect(q[0]).toBeCloseTo(WGS84_A, 6);
    expect(Math.abs(q[1]) + Math.abs(q[2])).toBeLessThan(1e-6);
    const pole = geodeticToEcef({ lat: 90, lon: 0, height: 0 });
    expect(pole[2]).toBeCloseTo(WGS84_A * (1 - WGS84_F), 6);
  });

  it('round-trips geodetic ↔ ECEF to under a micrometre and 1e-11 degrees', () => {
    for (const p of [{ lat: 47.3769, lon: 8.5417, height: 408 }, { lat: -33.86, lon: 151.21, height: -30 }, { lat: 88.9, lon: -170, height: 5000 }, { lat: 0.001, lon: 179.99, height: 0 }]) {
      const back = ecefToGeodetic(geodeticToEcef(p));
      expect(Math.abs(back.lat - p.lat)).toBeLessThan(1e-11);
      expect(Math.abs(back.lon - p.lon)).toBeLessThan(1e-11);
      expect(Math.abs(back.height - p.height)).toBeLessThan(1e-6);
    }
  });

  it('maps the world origin to the georeference and world axes to east, north and up', () => {
    const g = DEFAULT_GEOREFERENCE;
    const o = worldToGeodetic(g, [0, 0, 0]);
    expect(o.lat).toBeCloseTo(g.lat, 12);
    expect(o.lon).toBeCloseTo(g.lon, 12);
    expect(o.height).toBeCloseTo(g.height, 6);
    // 100 m north: the meridian radius of curvature M (plus the origin's height) gives the latitude step; the tangent plane rises d²/2R above the ellipsoid.
    const s = Math.sin(g.lat * DEG);
    const m = (WGS84_A * (1 - e2)) / (1 - e2 * s * s) ** 1.5;
    const n = WGS84_A / Math.sqrt(1 - e2 * s * s);
    const north = worldToGeodetic(g, [0, 100, 0]);
    expect((north.lat - g.lat) * DEG * (m + g.height)).toBeCloseTo(100, 3);
    expect(north.lon).toBeCloseTo(g.lon, 9);
    expect(north.height - g.height).toBeCloseTo(100 ** 2 / (2 * m), 4);
    // 100 m east: the prime vertical radius N cos φ gives the longitude step.
    const east = worldToGeodetic(g, [100, 0, 0]);
    expect((east.lon - g.lon) * DEG * (n + g.height) * Math.cos(g.lat * DEG)).toBeCloseTo(100, 3);
    expect(worldToGeodetic(g, [0, 0, 10]).height - g.height).toBeCloseTo(10, 6);
  });

  it('round-trips world ↔ WGS84 to under a millimetre across a 2 km world', () => {
    const g = { lat: -22.9, lon: -43.2, height: 12 };
    for (const p of [[0, 0, 0], [1000, -1000, 1.6], [-987.5, 432.1, 30], [1e4, 5e4, 0]] as [number, number, number][]) {
      const back = geodeticToWorld(g, worldToGeodetic(g, p));
      for (let k = 0; k < 3; k++) expect(Math.abs(back[k] - p[k])).toBeLessThan(1e-3);
    }
  });

  it('turns world yaw into a compass heading and back', () => {
    expect(yawToHeading(0)).toBeCloseTo(90, 12);
    expect(yawToHeading(Math.PI / 2)).toBeCloseTo(0, 12);
    expect(yawToHeading(Math.PI)).toBeCloseTo(270, 12);
    expect(yawToHeading(-Math.PI / 2)).toBeCloseTo(180, 12);
    for (const h of [0, 45, 181, 359.5]) expect(yawToHeading(headingToYaw(h))).toBeCloseTo(h, 9);
  });

  it('parses LAT,LON[,HEIGHT] and names what is wrong', () => {
    expect(parseGeoreference('35.7,139.77')).toEqual({ lat: 35.7, lon: 139.77, height: 0 });
    expect(parseGeoreference('35.7, 139.77, 40')).toEqual({ lat: 35.7, lon: 139.77, height: 40 });
    expect(() => parseGeoreference('35.7')).toThrow('--origin 35.7: expected LAT,LON or LAT,LON,HEIGHT');
    expect(() => parseGeoreference('95,10')).toThrow('--origin 95,10: latitude 95 is outside -89..89 degrees');
    expect(() => parseGeoreference('10,200')).toThrow('longitude 200 is outside');
    expect(() => parseGeoreference('10,x')).toThrow('expected LAT,LON');
  });
});
