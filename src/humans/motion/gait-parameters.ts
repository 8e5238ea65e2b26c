/**
 * Walking speed → stride length, cadence and duty factor.
 *
 * Relation: the **walk ratio** WR = step length / cadence is nearly constant across ordinary
 * walking speeds (Sekiya, Nagasaki, Ito & Furuna 1997, "Optimal walking in terms of variability in
 * step length", J. Orthop. Sports Phys. Ther. 26(5):266–272; Nagasaki et al. 1996), about
 * 0.0064 m/(steps/min) for adults. With v = step length × cadence this gives
 *   step length = √(WR · v),  cadence = √(v / WR)   (v in m/min, cadence in steps/min),
 * i.e. both grow as √v, as Grieve & Gear (1966, Ergonomics 9(5):379–399) and Grieve (1968) reported.
 * Constancy breaks below ≈ 1.0 m/s (Murakami & Otaka 2017, J. Phys. Ther. Sci. 29(4):722–725), where
 * people keep a higher cadence than √v predicts; Curbside keeps cadence ≥ {@link MIN_CADENCE}.
 * Duty factor (stance share of a stride): ≈ 62 % at free speed, falling with speed
 * (Perry & Burnfield 2010, "Gait Analysis", ch. 1; Grieve & Gear 1966); modelled linearly.
 */

/** Walk ratio, metres per (step/min) (Sekiya et al. 1997). */
export const WALK_RATIO = 0.0064;
/** Lowest cadence used, steps/min (keeps slow walks and start/stop transitions stepping). */
export const MIN_CADENCE = 70;
/** Leg length (hip to sole) the walk ratio refers to, metres (adult average). */
export const REFERENCE_LEG_LENGTH = 0.88;

/** Stride timing and geometry at one speed. */
export interface GaitParameters {
  /** Walking speed, m/s. */
  speed: number;
  /** Cadence, steps per minute (two steps per stride). */
  cadence: number;
  /** Stride frequency, strides per second (= cadence / 120). */
  strideFrequency: number;
  /** Stride length (one full cycle of one foot), metres (= speed / strideFrequency). */
  strideLength: number;
  /** Fraction of the stride a foot is on the ground, in (0.5, 1). */
  dutyFactor: number;
}

/**
 * Gait parameters for walking at `speed` (see the module doc for the relation and sources).
 *
 * @param speed m/s, ≥ 0 (0 gives zero stride at {@link MIN_CADENCE}); intended range 0.5–2.0.
 * @param legLength hip-to-sole length, metres: WR scales with it (geometric similarity).
 * @throws RangeError when `speed` is negative or not finite.
 */
export function gaitParameters(speed: number, legLength = REFERENCE_LEG_LENGTH): GaitParameters {
  if (!(speed >= 0) || !Number.isFinite(speed)) throw new RangeError(`gaitParameters: speed ${speed} m/s is not a finite value ≥ 0`);
  const wr = WALK_RATIO * (legLength / REFERENCE_LEG_LENGTH);
  const vPerMin = speed * 60;
  const cadence = Math.max(MIN_CADENCE, Math.sqrt(vPerMin / wr));
  const strideFrequency = cadence / 120;
  return {
    speed,
    cadence,
    strideFrequency,
    strideLength: speed / strideFrequency,
    dutyFactor: Math.min(0.66, Math.max(0.56, 0.68 - 0.06 * speed)),
  };
}
