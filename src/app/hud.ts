/**
 * The demo's heads-up display: FPS, per-pass GPU times, simulation step time, live metrics and
 * failure events, closures and their notices as text, and the minimap (map image + route + closed
 * areas + robot + pedestrians). DOM only.
 */
import type { PassTimes } from './demo-renderer';
import type { DemoSession } from './session';

/** Frame-rate and timing figures the HUD shows. */
export interface HudStats {
  fps: number;
  frameMs: number;
  passes: PassTimes;
  splats: number;
  splatsInView: number;
  adapter: string;
  timestamps: boolean;
}

const f1 = (v: number) => v.toFixed(1);

/** The HUD text for a session and the latest stats. */
export function hudText(session: DemoSession, stats: HudStats, paused: boolean, recordingVideo: boolean): string {
  const ep = session.episode, m = ep.metrics, s = ep.state;
  const lines = [
    `FPS ${f1(stats.fps)}  frame ${f1(stats.frameMs)} ms${recordingVideo ? '  ● REC' : ''}`,
    `adapter: ${stats.adapter}`,
  ];
  if (stats.passes) {
    const sortMs = stats.passes.get('splats.preprocess→splats.raster');
    const order = ['pedestrians', 'markers', 'splats.preprocess', 'splats.corners', 'splats.raster', 'present'];
    const parts = order.filter((k) => stats.passes!.has(k)).map((k) => `${k.replace('splats.', '')} ${stats.passes!.get(k)!.toFixed(2)}`);
    if (sortMs !== undefined) parts.splice(3, 0, `sort ${sortMs.toFixed(2)}`);
    lines.push(`GPU ms: ${parts.slice(0, 3).join(' · ')}`, `        ${parts.slice(3).join(' · ')}`);
  } else if (!stats.timestamps) lines.push('GPU ms: (no timestamp-query on this adapter)');
  lines.push(
    `splats ${stats.splats.toLocaleString('en')}${stats.splatsInView > stats.splats ? ` of ${stats.splatsInView.toLocaleString('en')}` : ''}  pedestrians ${session.crowd.count}`,
    `sim step ${session.stepMs.toFixed(2)} ms  t ${f1(m.time)} / ${session.scenario.timeLimit} s${paused ? '  (paused)' : ''}`,
    `${session.scenario.id}  · ${ep.policy.name}  seed ${session.seed}${ep.spec.name === 'wheeled' ? '' : `  · ${ep.spec.name}`}`,
    `route ${(m.routeCompletion * 100).toFixed(0)} %  v ${s.v.toFixed(2)} m/s  ω ${s.w.toFixed(2)} rad/s`,
    `min ped dist ${m.minPedestrianDistance === null ? '–' : `${m.minPedestrianDistance.toFixed(2)} m`}  status ${m.end}`,
  );
  const last = m.failures.slice(-3).map((e) => `${e.kind} @ ${f1(e.time)} s`);
  lines.push(`failures ${m.failures.length}${last.length ? `: ${last.join(', ')}` : ''}`);
  const closures = ep.closureStatus;
  if (closures) lines.push(`closures in force ${closures.active} / ${closures.total}`);
  const notice = ep.notices[ep.notices.length - 1];
  if (notice) lines.push(`notice @ ${f1(notice.time)} s: ${notice.text}`);
  return lines.join('\n');
}

/** Draws the minimap: the session's map image, pedestrians (magenta), the robot (orange, with heading). */
export function drawMinimap(ctx: CanvasRenderingContext2D, session: DemoSession, mapImage: ImageData): void {
  ctx.putImageData(mapImage, 0, 0);
  const sx = ctx.canvas.width / session.map.width, sy = ctx.canvas.height / session.map.height;
  const ep = session.episode;
  ctx.fillStyle = '#e61ec8';
  for (const d of ep.pedestrians.discs()) {
    const [x, y] = session.mapPixel([d.x, d.y]);
    ctx.beginPath();
    ctx.arc(x * sx, y * sy, 2.5, 0, 2 * Math.PI);
    ctx.fill();
  }
  // Closed areas: red once in force, outlined before.
  for (const { area, active } of session.closureAreas()) {
    ctx.beginPath();
    area.forEach((p, i) => {
      const [x, y] = session.mapPixel(p);
      if (i === 0) ctx.moveTo(x * sx, y * sy);
      else ctx.lineTo(x * sx, y * sy);
    });
    ctx.closePath();
    ctx.fillStyle = '#e01414';
    ctx.strokeStyle = '#e01414';
    ctx.lineWidth = 1.5;
    if (active) ctx.fill();
    else ctx.stroke();
  }
  const s = ep.state;
  const [rx, ry] = session.mapPixel([s.x, s.y]);
  const [hx, hy] = session.mapPixel([s.x + 2.5 * Math.cos(s.yaw), s.y + 2.5 * Math.sin(s.yaw)]);
  ctx.strokeStyle = '#ff8c1a';
  ctx.fillStyle = '#ff8c1a';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(rx * sx, ry * sy);
  ctx.lineTo(hx * sx, hy * sy);
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(rx * sx, ry * sy, 4, 0, 2 * Math.PI);
  ctx.fill();
}
