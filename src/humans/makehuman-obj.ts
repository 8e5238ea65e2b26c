/**
 * Parses MakeHuman's `3dobjs/base.obj` (Wavefront OBJ, hm08; format notes in
 * `../shared/data/humans/makehuman/README.md`): all `v` positions, `vt` coordinates, and per group
 * (`g`) the quads `f v/vt v/vt v/vt v/vt` (1-based). A group that appears twice keeps both parts.
 */

/** Raw OBJ content, in the file's frame and units (decimetres, Y up, +Z forward, +X left). */
export interface MakeHumanObj {
  /** N×3 positions (all 19,158 vertices, helpers included). */
  positions: Float64Array;
  /** T×2 texture coordinates. */
  texcoords: Float64Array;
  /** Group name → faces as [v0, v1, v2, v3, vt0, vt1, vt2, vt3] (0-based). */
  groups: Map<string, number[][]>;
}

/**
 * Parses OBJ text.
 *
 * @throws Error `file:line: problem` on a face whose index is out of range or unparsable.
 */
export function parseMakeHumanObj(text: string, file = 'base.obj'): MakeHumanObj {
  const positions: number[] = [];
  const texcoords: number[] = [];
  const groups = new Map<string, number[][]>();
  let current: number[][] = [];
  groups.set('', current);
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (line.startsWith('v ')) {
      const p = line.split(/\s+/);
      positions.push(+p[1], +p[2], +p[3]);
    } else if (line.startsWith('vt ')) {
      const p = line.split(/\s+/);
      texcoords.push(+p[1], +p[2]);
    } else if (line.startsWith('g ')) {
      const name = line.slice(2).trim();
      current = groups.get(name) ?? [];
      groups.set(name, current);
    } else if (line.startsWith('f ')) {
      const corners = line.trim().split(/\s+/).slice(1);
      const face = new Array<number>(corners.length * 2);
      corners.forEach((c, i) => {
        const [v, vt] = c.split('/');
        face[i] = +v - 1;
        face[corners.length + i] = vt ? +vt - 1 : -1;
      });
      for (let i = 0; i < corners.length; i++) {
        if (!(face[i] >= 0 && face[i] < positions.length / 3)) {
          throw new Error(`${file}:${n + 1}: face vertex '${corners[i]}' out of range`);
        }
      }
      current.push(face);
    }
  }
  return { positions: Float64Array.from(positions), texcoords: Float64Array.from(texcoords), groups };
}

/** The sorted distinct vertex indices used by the faces of `group`. */
export function groupVertices(obj: MakeHumanObj, group: string): number[] {
  const faces = obj.groups.get(group);
  if (!faces) throw new Error(`base.obj: group '${group}' not found`);
  const set = new Set<number>();
  for (const f of faces) for (let i = 0; i < f.length / 2; i++) set.add(f[i]);
  return [...set].sort((a, b) => a - b);
}
