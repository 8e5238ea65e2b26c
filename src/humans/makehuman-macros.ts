/**
 * MakeHuman macro sliders → weights of the macro target files (the shape coefficients β of a
 * MakeHuman {@link BodyModel}). MakeHuman 1.x's rule (`apps/humanmodifier.py`, as summarised in
 * `../shared/data/humans/makehuman/README.md`): each slider gives a weight to each of its named
 * levels, and a target file's weight is the product of the weights of the levels in its name.
 */

/** The macro sliders, each in [0, 1]; default 0.5 (race: 1/3 each). */
export interface MakeHumanMacros {
  /** 0 female … 1 male. */
  gender: number;
  /** 0 = 1 year, 0.1875 = 11 years, 0.5 = 25 years, 1 = 90 years (piecewise linear). */
  age: number;
  muscle: number;
  weight: number;
  /** 0 short … 1 tall (0.5 applies no height target). */
  height: number;
  african: number;
  asian: number;
  caucasian: number;
}

/** MakeHuman's default character: every slider 0.5, races equal. */
export const DEFAULT_MACROS: Readonly<MakeHumanMacros> = {
  gender: 0.5, age: 0.5, muscle: 0.5, weight: 0.5, height: 0.5, african: 1 / 3, asian: 1 / 3, caucasian: 1 / 3,
};

/**
 * Level weights of every macro level name (`female`, `young`, `maxmuscle`, `minheight`, `asian`, …).
 *
 * @throws RangeError when a slider is outside [0, 1] or not finite.
 */
export function macroLevelWeights(m: MakeHumanMacros): Map<string, number> {
  for (const [k, v] of Object.entries(m)) {
    if (!(v >= 0 && v <= 1)) throw new RangeError(`macroLevelWeights: ${k} = ${v} outside [0, 1]`);
  }
  const w = new Map<string, number>();
  w.set('male', m.gender);
  w.set('female', 1 - m.gender);
  const { age } = m;
  if (age < 0.5) {
    const young = Math.max(0, (age - 0.1875) / 0.3125);
    w.set('baby', Math.max(0, 1 - age / 0.1875));
    w.set('young', young);
    w.set('child', Math.min(1, age / 0.1875) - young);
    w.set('old', 0);
  } else {
    w.set('baby', 0);
    w.set('child', 0);
    w.set('old', 2 * age - 1);
    w.set('young', 2 - 2 * age);
  }
  for (const name of ['muscle', 'weight'] as const) {
    const v = m[name];
    const max = Math.max(0, 2 * v - 1), min = Math.max(0, 1 - 2 * v);
    w.set(`max${name}`, max);
    w.set(`min${name}`, min);
    w.set(`average${name}`, 1 - max - min);
  }
  w.set('maxheight', Math.max(0, 2 * m.height - 1));
  w.set('minheight', Math.max(0, 1 - 2 * m.height));
  const raceSum = m.african + m.asian + m.caucasian;
  for (const r of ['african', 'asian', 'caucasian'] as const) w.set(r, raceSum > 0 ? m[r] / raceSum : 1 / 3);
  return w;
}

/**
 * β for a MakeHuman model: the product weight of each target in `shapeNames`.
 *
 * @param shapeNames target names as in the model (`caucasian-female-young`,
 *   `universal-male-old-maxmuscle-minweight`, `height/female-young-averagemuscle-averageweight-maxheight`).
 * @throws Error naming a target whose name holds an unknown level.
 */
export function makeHumanBetas(shapeNames: readonly string[], macros: Partial<MakeHumanMacros> = {}): Float64Array {
  const w = macroLevelWeights({ ...DEFAULT_MACROS, ...macros });
  return Float64Array.from(shapeNames, (name) => {
    const levels = name.replace(/^height\//, '').replace(/^universal-/, '').split('-');
    return levels.reduce((p, level) => {
      const x = w.get(level);
      if (x === undefined) throw new Error(`makeHumanBetas: target '${name}': unknown level '${level}'`);
      return p * x;
    }, 1);
  });
}

/** Names of all macro target files (relative to `targets/macrodetails/`, without `.target.gz`). */
export function macroTargetNames(): string[] {
  const genders = ['female', 'male'];
  const ages = ['baby', 'child', 'young', 'old'];
  const levels = (n: string) => ['min', 'average', 'max'].map((l) => l + n);
  const names: string[] = [];
  for (const race of ['african', 'asian', 'caucasian']) for (const g of genders) for (const a of ages) names.push(`${race}-${g}-${a}`);
  for (const g of genders) for (const a of ages) for (const mu of levels('muscle')) for (const we of levels('weight')) {
    names.push(`universal-${g}-${a}-${mu}-${we}`);
    for (const h of ['minheight', 'maxheight']) names.push(`height/${g}-${a}-${mu}-${we}-${h}`);
  }
  return names;
}
