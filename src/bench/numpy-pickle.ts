/**
 * A pickle (protocol 3) of a dict of float64 numpy arrays, written without Python: the
 * `traj_data.pkl` of the visual-navigation datasets (visualnav-transformer / GNM: `position` [T, 2],
 * `yaw` [T]). Arrays are pickled as numpy itself does (`ndarray.__reduce__`: the
 * `numpy.core.multiarray._reconstruct` global, then the state `(1, shape, dtype('<f8'), False, raw
 * bytes)`), so `pickle.load` gives real `np.ndarray`s under numpy 1.x and 2.x.
 * Opcodes: the CPython `pickletools` names, Python's Lib/pickle.py.
 */

/** A float64 array and its shape (row-major; the product of `shape` is `data.length`). */
export interface Float64NdArray {
  shape: number[];
  data: ArrayLike<number>;
}

const enc = new TextEncoder();

/**
 * The pickle bytes of `{ key: ndarray, … }` (keys in the given order).
 *
 * @throws RangeError when a shape does not match its data's length or a dimension is not a non-negative integer.
 */
export function pickleFloat64Arrays(arrays: Record<string, Float64NdArray>): Uint8Array {
  const out: number[] = [];
  const byte = (...b: number[]) => out.push(...b);
  const u32 = (v: number) => byte(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
  const int = (v: number) => {
    if (v >= 0 && v < 256) byte(0x4b, v); // BININT1
    else {
      byte(0x4a); // BININT (signed 4 bytes)
      u32(v >>> 0);
    }
  };
  const unicode = (s: string) => {
    const b = enc.encode(s);
    byte(0x58); // BINUNICODE
    u32(b.length);
    byte(...b);
  };
  const global = (module: string, name: string) => byte(0x63, ...enc.encode(`${module}\n${name}\n`)); // GLOBAL
  const MARK = 0x28, TUPLE = 0x74, TUPLE1 = 0x85, TUPLE2 = 0x86, TUPLE3 = 0x87, REDUCE = 0x52, BUILD = 0x62, NONE = 0x4e, NEWTRUE = 0x88, NEWFALSE = 0x89;
  const tupleOf = (items: number[]) => {
    if (items.length === 0) return byte(0x29); // EMPTY_TUPLE
    if (items.length <= 3) {
      for (const v of items) int(v);
      return byte([TUPLE1, TUPLE2, TUPLE3][items.length - 1]);
    }
    byte(MARK);
    for (const v of items) int(v);
    byte(TUPLE);
  };

  byte(0x80, 3); // PROTO 3
  byte(0x7d); // EMPTY_DICT
  byte(MARK);
  for (const [key, a] of Object.entries(arrays)) {
    const n = a.shape.reduce((p, d) => p * d, 1);
    if (a.shape.some((d) => !Number.isInteger(d) || d < 0) || n !== a.data.length) throw new RangeError(`pickleFloat64Arrays: ${key}: shape [${a.shape.join(', ')}] does not hold ${a.data.length} values`);
    unicode(key);
    // _reconstruct(ndarray, (0,), b'b')
    global('numpy.core.multiarray', '_reconstruct');
    global('numpy', 'ndarray');
    tupleOf([0]);
    byte(0x43, 1, 0x62); // SHORT_BINBYTES b'b'
    byte(TUPLE3, REDUCE);
    // state: (1, shape, dtype('<f8'), False, raw)
    byte(MARK);
    int(1);
    tupleOf(a.shape);
    global('numpy', 'dtype');
    unicode('f8');
    byte(NEWFALSE, NEWTRUE, TUPLE3, REDUCE);
    byte(MARK);
    int(3);
    unicode('<');
    byte(NONE, NONE, NONE);
    int(-1);
    int(-1);
    int(0);
    byte(TUPLE, BUILD); // dtype state (3, '<', None, None, None, -1, -1, 0)
    byte(NEWFALSE);
    const raw = new Uint8Array(Float64Array.from(a.data).buffer); // little-endian on every JS engine's hosts
    byte(0x42); // BINBYTES
    u32(raw.length);
    for (const b of raw) out.push(b);
    byte(TUPLE, BUILD);
  }
  byte(0x75); // SETITEMS
  byte(0x2e); // STOP
  return Uint8Array.from(out);
}
