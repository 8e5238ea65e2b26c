/**
 * The architecture's one rule: imports only go down the layers (docs/concepts/architecture.md). Every
 * relative import of every TypeScript file under src/ and bench/ (tests included) is resolved and
 * its target's layer must be strictly below the importer's; no exceptions list. Product files also
 * never import the test fixtures in test/ (tests may).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Bottom to top. A layer may import any layer listed before it, never one after it or a sibling
 * in its own row. `bench/` (top level) holds the performance benchmarks: their page halves sit
 * under the page registry in src/tools, their Node scripts above the CLIs.
 */
const LAYERS: { name: string; files: (path: string) => boolean }[][] = [
  ['core'], ['gpu'], ['splats'], ['humans'], ['world'], ['robot'], ['sim'], ['crowd'], ['sensors'], ['policy'], ['bench', 'arena'], ['app'],
].map((row) => row.map((dir) => ({ name: `src/${dir}`, files: (p: string) => p.startsWith(`src/${dir}/`) })));
LAYERS.push(
  [{ name: 'bench page halves', files: (p) => /^bench\/[^/]*(\.headless-api|splat-frame-timer)\.ts$/.test(p) }],
  [{ name: 'src/tools', files: (p) => p.startsWith('src/tools/') }],
  [{ name: 'src/cli', files: (p) => p.startsWith('src/cli/') }],
  [{ name: 'bench scripts', files: (p) => /^bench\/[^/]*\.ts$/.test(p) }],
);

/** The row index and name of a repository-relative path's layer; null outside the layered code. */
function layerOf(path: string): { row: number; name: string } | null {
  for (let row = 0; row < LAYERS.length; row++) {
    for (const l of LAYERS[row]) if (l.files(path)) return { row, name: l.name };
  }
  return null;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The repository-relative file a relative import specifier names (with or without `.ts`, or a folder's index.ts). */
function resolveImport(importer: string, specifier: string): string {
  const base = relative(ROOT, resolve(ROOT, dirname(importer), specifier.split('?')[0]));
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`]) {
    try {
      if (statSync(join(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`${importer}: import '${specifier}' names no file`);
}

interface Edge { from: string; to: string }

function importGraph(): Edge[] {
  const edges: Edge[] = [];
  for (const from of [...tsFiles('src'), ...tsFiles('bench')]) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, from), 'utf8'), true, true);
    for (const ref of info.importedFiles) {
      if (ref.fileName.startsWith('.')) edges.push({ from, to: resolveImport(from, ref.fileName) });
    }
  }
  return edges;
}

describe('layers', () => {
  const edges = importGraph();

  it('reads the whole import graph', () => {
    // Guards the parser: a change that made it see no imports would pass everything below.
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges).toContainEqual({ from: 'src/bench/episode.ts', to: 'src/sim/scenario.ts' });
  });

  it('every src and bench file belongs to a layer', () => {
    const files = [...tsFiles('src'), ...tsFiles('bench')].filter((f) => f !== 'src/layers.test.ts');
    expect(files.filter((f) => !layerOf(f))).toEqual([]);
  });

  it('imports only go down', () => {
    const upward = edges.flatMap(({ from, to }) => {
      const a = layerOf(from);
      const b = layerOf(to);
      if (!a || !b || a.name === b.name || b.row < a.row) return [];
      return [`${from} (${a.name}) imports ${to} (${b.name})`];
    });
    expect(upward).toEqual([]);
  });

  it('product code never imports the test fixtures', () => {
    const isTest = (f: string) => /\.test\.ts$|test-utils\.ts$|wgsl-layout-check\.ts$/.test(f);
    const bad = edges.filter(({ from, to }) => to.startsWith('test/') && !isTest(from)).map(({ from, to }) => `${from} imports ${to}`);
    expect(bad).toEqual([]);
  });
});
