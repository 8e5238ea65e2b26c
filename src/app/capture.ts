/**
 * Screenshot and video capture of the demo canvas, and file downloads. DOM only.
 */

/** Starts a download of `blob` as `name`. */
export function download(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/**
 * A PNG of the canvas as it was last presented. Call it right after a frame's submission in the
 * same task (the WebGPU canvas texture is only readable until the frame is composited).
 *
 * @throws Error when the browser cannot encode the canvas.
 */
export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('screenshot: the canvas could not be encoded'))), 'image/png'));
}

/** Records the canvas with MediaRecorder (WebM) until `stop` resolves the video. */
export class CanvasRecorder {
  private readonly recorder: MediaRecorder;
  private readonly chunks: Blob[] = [];
  private readonly done: Promise<Blob>;

  /** @throws Error when MediaRecorder or canvas.captureStream is unavailable. */
  constructor(canvas: HTMLCanvasElement, fps = 30) {
    if (typeof MediaRecorder === 'undefined' || !canvas.captureStream) throw new Error('video capture: this browser has no MediaRecorder / canvas.captureStream');
    const mime = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'].find((m) => MediaRecorder.isTypeSupported(m)) ?? '';
    this.recorder = new MediaRecorder(canvas.captureStream(fps), mime ? { mimeType: mime } : undefined);
    this.recorder.ondataavailable = (e) => e.data.size > 0 && this.chunks.push(e.data);
    this.done = new Promise((resolve) => (this.recorder.onstop = () => resolve(new Blob(this.chunks, { type: 'video/webm' }))));
    this.recorder.start(250);
  }

  /** Stops and returns the video. */
  stop(): Promise<Blob> {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    return this.done;
  }
}
