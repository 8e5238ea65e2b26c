/**
 * Georeference of a world or a scanned scene: where its origin lies on the Earth, so that positions
 * can be given as WGS84 latitude, longitude and height (UrbanGround's API speaks lat/lon).
 *
 * The world frame (metres, Z up) is the local east-north-up (ENU) tangent frame at the origin:
 * +x east, +y north, +z up along the ellipsoid normal. Conversions are exact on the WGS84 ellipsoid
 * (geodetic ↔ Earth-centred Earth-fixed ↔ ENU), not a flat-Earth approximation: a round trip is
 * exact to well under a millimetre anywhere within 100 km of the origin.
 *
 * Sources: WGS84 constants, NIMA TR8350.2 (3rd ed., 2000) §3; geodetic ↔ ECEF and the ENU rotation,
 * e.g. J. Zhu, "Conversion of Earth-centered Earth-fixed coordinates to geodetic coordinates",
 * IEEE TAES 30(3), 1994, and Bowring's iteration (Survey Review 23(181), 1976) for the inverse.
 */
import type { Vec3 } from '../gpu/camera';
import { UserError } from '../core/user-error';

/** A georeference out of range or not parseable: names the option or file and the value. */
export class GeoreferenceError extends UserError {}

/** WGS84 semi-major axis, metres. */
export const WGS84_A = 6_378_137.0;
/** WGS84 flattening. */
export const WGS84_F = 1 / 298.257223563;
const E2 = WGS84_F * (2 - WGS84_F);
const B = WGS84_A * (1 - WGS84_F);
const EP2 = E2 / (1 - E2);
const DEG = Math.PI / 180;

/** Where a world's origin (0, 0, 0) lies: WGS84 latitude and longitude, degrees, and ellipsoidal height, metres. */
export interface Georeference {
  lat: number;
  lon: number;
  height: number;
}

/** A WGS84 position: latitude and longitude, degrees; ellipsoidal height, metres. */
export interface GeodeticPosition {
  lat: number;
  lon: number;
  height: number;
}

/**
 * The default georeference of generated worlds: an arbitrary spot on land (47.3769° N, 8.5417° E,
 * 408 m, in Zürich) chosen so that coordinates look like a city's; `--origin LAT,LON[,HEIGHT]` picks another.
 */
export const DEFAULT_GEOREFERENCE: Georeference = { lat: 47.3769, lon: 8.5417, height: 408 };

/**
 * A world's own georeference: a real place's (its selection's centre: `world.osm.source`), else the
 * default of generated worlds ({@link DEFAULT_GEOREFERENCE}).
 */
export function worldGeoreference(world: { osm?: { source: { georeference: Georeference } } }): Georeference {
  return world.osm?.source.georeference ?? DEFAULT_GEOREFERENCE;
}

/**
 * Checks a georeference.
 *
 * @throws GeoreferenceError naming `what` when latitude is outside [-89, 89]° (the ENU frame degenerates at
 * the poles), longitude outside [-180, 180]° or height outside [-500, 9000] m.
 */
export function checkGeoreference(g: Georeference, what = 'georeference'): Georeference {
  if (!(Math.abs(g.lat) <= 89)) throw new GeoreferenceError(`${what}: latitude ${g.lat} is outside -89..89 degrees`);
  if (!(Math.abs(g.lon) <= 180)) throw new GeoreferenceError(`${what}: longitude ${g.lon} is outside -180..180 degrees`);
  if (!(g.height >= -500 && g.height <= 9000)) throw new GeoreferenceError(`${what}: height ${g.height} is outside -500..9000 m`);
  return g;
}

/**
 * Parses `LAT,LON` or `LAT,LON,HEIGHT` (degrees, degrees, metres).
 *
 * @throws GeoreferenceError naming `what` and the text when it is not two or three numbers in range.
 */
export function parseGeoreference(text: string, what = '--origin'): Georeference {
  const parts = text.split(',').map((s) => s.trim());
  const n = parts.map(Number);
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((s) => s === '') || n.some((v) => !Number.isFinite(v))) {
    throw new GeoreferenceError(`${what} ${text}: expected LAT,LON or LAT,LON,HEIGHT in degrees and metres, e.g. 47.3769,8.5417,408`);
  }
  return checkGeoreference({ lat: n[0], lon: n[1], height: n[2] ?? 0 }, `${what} ${text}`);
}

/** Earth-centred Earth-fixed coordinates (metres) of a geodetic position. */
export function geodeticToEcef(p: GeodeticPosition): Vec3 {
  const phi = p.lat * DEG;
  const lambda = p.lon * DEG;
  const s = Math.sin(phi);
  const n = WGS84_A / Math.sqrt(1 - E2 * s * s);
  return [(n + p.height) * Math.cos(phi) * Math.cos(lambda), (n + p.height) * Math.cos(phi) * Math.sin(lambda), (n * (1 - E2) + p.height) * s];
}

/** Geodetic position of ECEF coordinates (metres), by Bowring's iteration (converged to < 1e-12 rad). */
export function ecefToGeodetic(q: Vec3): GeodeticPosition {
  const [x, y, z] = q;
  const p = Math.hypot(x, y);
  const lambda = Math.atan2(y, x);
  // Bowring's parametric latitude start, then refine.
  let beta = Math.atan2(z * WGS84_A, p * B);
  let phi = 0;
  for (let k = 0; k < 5; k++) {
    const sb = Math.sin(beta);
    const cb = Math.cos(beta);
    const next = Math.atan2(z + EP2 * B * sb * sb * sb, p - E2 * WGS84_A * cb * cb * cb);
    const done = Math.abs(next - phi) < 1e-13;
    phi = next;
    beta = Math.atan2((1 - WGS84_F) * Math.sin(phi), Math.cos(phi));
    if (done) break;
  }
  const s = Math.sin(phi);
  const n = WGS84_A / Math.sqrt(1 - E2 * s * s);
  const height = Math.abs(Math.cos(phi)) > 1e-9 ? p / Math.cos(phi) - n : Math.abs(z) / Math.abs(s) - n * (1 - E2);
  return { lat: phi / DEG, lon: lambda / DEG, height };
}

/**
 * WGS84 position of a world point (world frame = ENU at the georeference's origin, metres).
 */
export function worldToGeodetic(g: Georeference, p: Vec3): GeodeticPosition {
  const phi = g.lat * DEG;
  const lambda = g.lon * DEG;
  const [sp, cp, sl, cl] = [Math.sin(phi), Math.cos(phi), Math.sin(lambda), Math.cos(lambda)];
  const [e, n, u] = p;
  const o = geodeticToEcef(g);
  // ENU → ECEF: the transpose of the ECEF → ENU rotation.
  const dx = -sl * e - sp * cl * n + cp * cl * u;
  const dy = cl * e - sp * sl * n + cp * sl * u;
  const dz = cp * n + sp * u;
  return ecefToGeodetic([o[0] + dx, o[1] + dy, o[2] + dz]);
}

/** World point (ENU at the georeference's origin, metres) of a WGS84 position. */
export function geodeticToWorld(g: Georeference, p: GeodeticPosition): Vec3 {
  const phi = g.lat * DEG;
  const lambda = g.lon * DEG;
  const [sp, cp, sl, cl] = [Math.sin(phi), Math.cos(phi), Math.sin(lambda), Math.cos(lambda)];
  const o = geodeticToEcef(g);
  const q = geodeticToEcef(p);
  const [dx, dy, dz] = [q[0] - o[0], q[1] - o[1], q[2] - o[2]];
  return [-sl * dx + cl * dy, -sp * cl * dx - sp * sl * dy + cp * dz, cp * cl * dx + cp * sl * dy + sp * dz];
}

/** Compass heading (degrees clockwise from north, [0, 360)) of a world yaw (rad counter-clockwise from +x = east). */
export function yawToHeading(yaw: number): number {
  const h = 90 - yaw / DEG;
  return ((h % 360) + 360) % 360;
}

/** World yaw (rad counter-clockwise from +x = east, (-π, π]) of a compass heading (degrees clockwise from north). */
export function headingToYaw(headingDeg: number): number {
  const a = (90 - headingDeg) * DEG;
  return Math.atan2(Math.sin(a), Math.cos(a));
}
