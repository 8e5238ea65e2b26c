import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEADLESS_API_MODULES } from './headless-api-types';

const ROOT = resolve(import.meta.dirname, '../..');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('typed headless API', () => {
  it('lists exactly the modules headless-entry.ts collects (src/**/headless-api.ts, bench/*.headless-api.ts)', () => {
    const onDisk = [
      ...walk(join(ROOT, 'src')).filter((p) => p.endsWith('/headless-api.ts')),
      ...readdirSync(join(ROOT, 'bench')).filter((n) => n.endsWith('.headless-api.ts')).map((n) => join(ROOT, 'bench', n)),
    ].map((p) => relative(ROOT, p));
    expect([...HEADLESS_API_MODULES].sort()).toEqual(onDisk.sort());
  });
});
