/**
 * The scene editor's map canvas: draws the top-down image with the draft on top (polygons by kind,
 * holes, vertices, named points, the ring being drawn, the selection) and turns pointer input into
 * draft edits for the active tool. Pan: drag with the right or middle button (or on empty ground
 * with the select tool); zoom: the wheel, about the cursor.
 *
 * Tools: `select` (drag vertices and points, double-click an edge to add a vertex, click a polygon
 * to select it; Delete removes the last grabbed vertex, else the selected polygon), `sidewalk` / `crosswalk` / `road` / `obstacle` (click vertices; close on the first
 * vertex, a double click or Enter; Backspace removes the last one, Escape cancels), `hole` (the first
 * click picks the polygon), `point`, `origin` (the click becomes the world origin) and `ground3`
 * (three clicks on the ground re-level the capture through them).
 */
import type { Vec2 } from '../../core/geometry2d';
import { insertVertex, nearestEdge, nearestPoint, nearestVertex, polygonAt, removeVertex, ringOf, snapPoint, type RegionKind, type SceneDraft, type SceneDraftHistory, type VertexRef } from './scene-draft';
import { pixelToWorld, worldToPixel, type MapView } from './top-down-view';

export type EditorTool = 'select' | RegionKind | 'hole' | 'point' | 'origin' | 'ground3';

/** Colours of the drawn kinds (fill with alpha, outline). */
const STYLE: Record<RegionKind, { fill: string; line: string }> = {
  sidewalk: { fill: 'rgba(80, 170, 255, 0.28)', line: '#5aaaff' },
  crosswalk: { fill: 'rgba(255, 230, 90, 0.30)', line: '#ffe65a' },
  road: { fill: 'rgba(160, 160, 170, 0.22)', line: '#b0b0bc' },
  obstacle: { fill: 'rgba(255, 90, 80, 0.35)', line: '#ff5a50' },
};
const POINT_COLOUR = { start: '#4cd964', goal: '#ff9f0a', landmark: '#d08cff' } as const;

/** Callbacks from the canvas to the page. */
export interface CanvasHost {
  history: SceneDraftHistory;
  tool(): EditorTool;
  /** Grid snap step, metres (0: none). */
  grid(): number;
  obstacleHeight(): number;
  newPoint(): { name: string; kind: 'start' | 'goal' | 'landmark' };
  /** The draft changed (re-validate, re-list). */
  changed(): void;
  /** The view moved (render the splats again). */
  viewChanged(): void;
  /** A click for the `origin` tool, world metres. */
  setOrigin(p: Vec2): void;
  /** Three clicks of the `ground3` tool, world metres. */
  groundPoints(ps: Vec2[]): void;
  status(message: string): void;
}

const SNAP_PX = 8;

/** The map canvas. */
export class EditorCanvas {
  view: MapView = { centre: [0, 0], metresPerPixel: 0.05 };
  image: ImageData | null = null;
  /** The ring being drawn (world metres). */
  pending: Vec2[] = [];
  private holeOf = -1;
  selectedPolygon = -1;
  /** The vertex last grabbed with the select tool (Delete removes it), or null. */
  selectedVertex: VertexRef | null = null;
  private drag: { kind: 'pan'; x: number; y: number } | { kind: 'vertex'; ref: VertexRef } | { kind: 'point'; index: number } | null = null;
  private readonly ctx: CanvasRenderingContext2D;

  constructor(readonly canvas: HTMLCanvasElement, private readonly host: CanvasHost) {
    this.ctx = canvas.getContext('2d')!;
    canvas.addEventListener('pointerdown', (e) => this.onDown(e));
    canvas.addEventListener('pointermove', (e) => this.onMove(e));
    canvas.addEventListener('pointerup', () => this.onUp());
    canvas.addEventListener('dblclick', (e) => (this.host.tool() === 'select' ? this.insertVertexAt(this.worldAt(e)) : this.finishRing()));
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    canvas.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
  }

  private get draft(): SceneDraft {
    return this.host.history.draft;
  }

  /** World (x, y) of a pointer event. */
  private worldAt(e: { clientX: number; clientY: number }): Vec2 {
    const r = this.canvas.getBoundingClientRect();
    const px = ((e.clientX - r.left) / r.width) * this.canvas.width;
    const py = ((e.clientY - r.top) / r.height) * this.canvas.height;
    return pixelToWorld(this.view, this.canvas.width, this.canvas.height, px, py);
  }

  /** Page coordinates of world (x, y) (for scripted input: tests click there). */
  clientPoint(x: number, y: number): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    const [px, py] = worldToPixel(this.view, this.canvas.width, this.canvas.height, x, y);
    return [r.left + (px / this.canvas.width) * r.width, r.top + (py / this.canvas.height) * r.height];
  }

  private get snapRadius(): number {
    return SNAP_PX * this.view.metresPerPixel;
  }

  private onDown(e: PointerEvent): void {
    this.canvas.setPointerCapture(e.pointerId);
    if (e.button !== 0) {
      this.drag = { kind: 'pan', x: e.clientX, y: e.clientY };
      return;
    }
    const p = this.worldAt(e);
    const tool = this.host.tool();
    if (tool === 'select') {
      const v = nearestVertex(this.draft, p, this.snapRadius);
      const pt = nearestPoint(this.draft, p, this.snapRadius);
      if (pt >= 0) {
        this.host.history.checkpoint();
        this.drag = { kind: 'point', index: pt };
      } else if (v) {
        this.host.history.checkpoint();
        this.drag = { kind: 'vertex', ref: v };
        this.selectedPolygon = v.polygon;
        this.selectedVertex = v;
      } else {
        this.selectedVertex = null;
        this.selectedPolygon = polygonAt(this.draft, p);
        if (this.selectedPolygon < 0) this.drag = { kind: 'pan', x: e.clientX, y: e.clientY };
        this.host.changed();
      }
    } else if (tool === 'point') {
      const { name, kind } = this.host.newPoint();
      this.host.history.edit((d) => d.points.push({ name, kind, position: snapPoint(d, p, this.snapRadius, this.host.grid()) }));
      this.host.changed();
    } else if (tool === 'origin') {
      this.host.setOrigin(p);
    } else if (tool === 'ground3') {
      this.pending.push(p);
      if (this.pending.length === 3) {
        const ps = this.pending;
        this.pending = [];
        this.host.groundPoints(ps);
      } else this.host.status(`ground point ${this.pending.length} of 3: click ${3 - this.pending.length} more on open ground`);
    } else {
      this.addVertex(p, tool);
    }
    this.draw();
  }

  private addVertex(p: Vec2, tool: RegionKind | 'hole'): void {
    if (tool === 'hole' && this.pending.length === 0) {
      this.holeOf = polygonAt(this.draft, p);
      if (this.holeOf < 0 || this.draft.polygons[this.holeOf].kind === 'obstacle') {
        this.host.status('a hole starts inside a sidewalk, crosswalk or road polygon');
        return;
      }
    }
    const q = snapPoint(this.draft, p, this.snapRadius, this.host.grid(), this.pending);
    const first = this.pending[0];
    if (this.pending.length >= 3 && first && q[0] === first[0] && q[1] === first[1]) {
      this.finishRing();
      return;
    }
    const last = this.pending[this.pending.length - 1];
    if (last && last[0] === q[0] && last[1] === q[1]) return; // the second click of a double click
    this.pending.push(q);
    this.host.status(`${tool}: ${this.pending.length} vertices (close on the first vertex, double-click or Enter)`);
  }

  /** Closes the ring being drawn into a polygon or hole (at least 3 vertices). */
  finishRing(): void {
    const tool = this.host.tool();
    if (this.pending.length < 3 || tool === 'select' || tool === 'point' || tool === 'origin' || tool === 'ground3') return;
    const ring = this.pending;
    this.pending = [];
    if (tool === 'hole') {
      const i = this.holeOf;
      this.host.history.edit((d) => d.polygons[i].holes.push(ring));
    } else {
      const height = this.host.obstacleHeight();
      this.host.history.edit((d) => d.polygons.push({ kind: tool, outer: ring, holes: [], ...(tool === 'obstacle' ? { height } : {}) }));
    }
    this.host.status(`${tool} added`);
    this.host.changed();
    this.draw();
  }

  /** Escape: drops the ring being drawn. Backspace: its last vertex. */
  cancelRing(lastOnly: boolean): void {
    if (lastOnly) this.pending.pop();
    else this.pending = [];
    this.draw();
  }

  /** Select tool, double click: a new vertex on the nearest edge (within the snap radius). */
  private insertVertexAt(p: Vec2): void {
    const e = nearestEdge(this.draft, p, this.snapRadius);
    if (!e) return;
    this.host.history.edit((d) => insertVertex(d, e.after, e.at));
    this.selectedVertex = { ...e.after, vertex: e.after.vertex + 1 };
    this.selectedPolygon = e.after.polygon;
    this.host.status('vertex added: drag it where it belongs');
    this.host.changed();
    this.draw();
  }

  /** Deletes the selected vertex (rings keep at least 3), else the selected polygon. */
  deleteSelected(): void {
    const v = this.selectedVertex;
    const poly = v ? this.draft.polygons[v.polygon] : undefined;
    const live = v && poly && (v.ring < 0 ? poly.outer : poly.holes[v.ring])?.[v.vertex] !== undefined;
    if (v && !live) this.selectedVertex = null; // stale after an undo
    if (v && live) {
      if (ringOf(this.draft, v).length <= 3) {
        this.host.status('a ring keeps at least 3 vertices: delete the polygon instead (click inside it, then Delete)');
        return;
      }
      this.host.history.edit((d) => removeVertex(d, v));
      this.selectedVertex = null;
      this.host.changed();
      this.draw();
      return;
    }
    const i = this.selectedPolygon;
    if (i < 0 || i >= this.draft.polygons.length) return;
    this.host.history.edit((d) => d.polygons.splice(i, 1));
    this.selectedPolygon = -1;
    this.host.changed();
    this.draw();
  }

  private onMove(e: PointerEvent): void {
    if (!this.drag) return;
    if (this.drag.kind === 'pan') {
      const r = this.canvas.getBoundingClientRect();
      const k = (this.canvas.width / r.width) * this.view.metresPerPixel;
      this.view.centre = [this.view.centre[0] - (e.clientX - this.drag.x) * k, this.view.centre[1] + (e.clientY - this.drag.y) * k];
      this.drag.x = e.clientX;
      this.drag.y = e.clientY;
      this.draw();
      return;
    }
    const p = this.worldAt(e);
    const d = this.draft; // the checkpoint was taken on pointerdown: change in place
    if (this.drag.kind === 'point') d.points[this.drag.index].position = snapPoint(d, p, this.snapRadius, this.host.grid());
    else {
      const ref = this.drag.ref;
      const ring = ringOf(d, ref);
      const others = { ...d, polygons: d.polygons.map((poly, i) => (i === ref.polygon ? { ...poly, outer: [], holes: [] } : poly)) };
      ring[ref.vertex] = snapPoint(others, p, this.snapRadius, this.host.grid());
    }
    this.draw();
  }

  private onUp(): void {
    const was = this.drag;
    this.drag = null;
    if (was?.kind === 'pan') this.host.viewChanged();
    else if (was) this.host.changed();
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const before = this.worldAt(e);
    this.view.metresPerPixel *= Math.exp(e.deltaY * 0.0015);
    const after = this.worldAt(e);
    this.view.centre = [this.view.centre[0] + before[0] - after[0], this.view.centre[1] + before[1] - after[1]];
    this.draw();
    this.host.viewChanged();
  }

  /** Redraws the image (as last rendered) and the draft. */
  draw(): void {
    const { ctx, canvas } = this;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    if (this.image) ctx.putImageData(this.image, 0, 0);
    const px = (v: Vec2) => worldToPixel(this.view, canvas.width, canvas.height, v[0], v[1]);
    const trace = (ring: Vec2[]) => ring.forEach((v, i) => (i ? ctx.lineTo(...px(v)) : ctx.moveTo(...px(v))));
    this.draft.polygons.forEach((p, i) => {
      ctx.beginPath();
      trace(p.outer);
      ctx.closePath();
      for (const h of p.holes) {
        trace(h);
        ctx.closePath();
      }
      ctx.fillStyle = STYLE[p.kind].fill;
      ctx.fill('evenodd');
      ctx.lineWidth = i === this.selectedPolygon ? 3 : 1.5;
      ctx.strokeStyle = STYLE[p.kind].line;
      ctx.stroke();
      ctx.fillStyle = STYLE[p.kind].line;
      for (const v of [p.outer, ...p.holes].flat()) ctx.fillRect(px(v)[0] - 2.5, px(v)[1] - 2.5, 5, 5);
    });
    ctx.font = '12px system-ui, sans-serif';
    for (const pt of this.draft.points) {
      const [x, y] = px(pt.position);
      ctx.fillStyle = POINT_COLOUR[pt.kind];
      ctx.beginPath();
      ctx.arc(x, y, 5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillText(pt.name, x + 7, y - 7);
    }
    if (this.pending.length) {
      ctx.beginPath();
      trace(this.pending);
      ctx.setLineDash([5, 4]);
      ctx.strokeStyle = '#fff';
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#fff';
      for (const v of this.pending) ctx.fillRect(px(v)[0] - 3, px(v)[1] - 3, 6, 6);
    }
  }
}
