/**
 * End to end: a splat file larger than 512 MB (generated here, never checked in) goes through the
 * CLI harness (`npm run render`): served from disk by the harness's streaming middleware (no base64
 * string, no Playwright `route.fulfill`), loaded by the page and rendered. Before the streaming
 * server, a 620 MB file failed with "Cannot create a string longer than 0x1fffffe8 characters".
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticSplats } from '../splats/synthetic-splats';
import { writePly } from '../splats/formats/ply-writer';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'curbside-large-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('large splat files through the CLI harness', () => {
  it('renders a generated 2.2 M-splat SH-3 PLY of more than 512 MB with npm run render', { timeout: 600_000 }, () => {
    const count = 2_200_000; // 248 bytes per SH-3 splat: 545 MB
    const path = join(dir, 'large.ply');
    const fd = openSync(path, 'w');
    try {
      writePly(syntheticSplats(count, 3, 9), (b) => void writeSync(fd, b));
    } finally {
      closeSync(fd);
    }
    expect(statSync(path).size).toBeGreaterThan(512 * 2 ** 20);
    const out = join(dir, 'large.png');
    const run = spawnSync('npm', ['run', '--silent', 'render', '--', '--scene', path, '--out', out, '--width', '64', '--height', '48', '--eye', '0,0,0', '--target', '0,1,0', '--up', '0,0,1'], { cwd: ROOT, encoding: 'utf8', timeout: 540_000 });
    expect(run.stderr, 'stderr').not.toMatch(/error|warning/i);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${count.toLocaleString('en')} splats`);
    expect(statSync(out).size).toBeGreaterThan(0);
  });
});
