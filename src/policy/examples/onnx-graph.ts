/**
 * A minimal ONNX graph builder over `onnx-proto` (the ONNX 1.10 protobuf schema, protobufjs), for
 * the example models. Node-only (tsx). Produces IR version 8, opset 17 (ONNX spec,
 * `docs/IR.md` and `docs/Operators.md`).
 */
import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';

// onnx-proto is CommonJS: its `onnx` namespace is a property of the default export under Node ESM.
const { onnx } = onnxProto as unknown as { onnx: typeof OnnxTypes };
type INodeProto = OnnxTypes.INodeProto;
type ITensorProto = OnnxTypes.ITensorProto;
type IValueInfoProto = OnnxTypes.IValueInfoProto;
type IAttributeProto = OnnxTypes.IAttributeProto;

/** ONNX opset the examples use (onnxruntime-web 1.30 supports up to 23). */
export const EXAMPLE_OPSET = 17;
/** ONNX IR version for opset 17. */
export const EXAMPLE_IR_VERSION = 8;

/** A dim: a fixed size or a symbolic name (e.g. `B` for the batch). */
export type Dim = number | string;

/** Builds one graph: inputs, initializers, nodes and outputs, then serialises the model. */
export class GraphBuilder {
  private readonly nodes: INodeProto[] = [];
  private readonly initializers: ITensorProto[] = [];
  private readonly inputs: IValueInfoProto[] = [];
  private readonly outputs: IValueInfoProto[] = [];
  private counter = 0;

  constructor(readonly name: string) {}

  private static valueInfo(name: string, dims: readonly Dim[]): IValueInfoProto {
    return {
      name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
        },
      },
    };
  }

  /** Declares a float32 graph input; returns its name. */
  input(name: string, dims: readonly Dim[]): string {
    this.inputs.push(GraphBuilder.valueInfo(name, dims));
    return name;
  }

  /** Declares a float32 graph output produced by `from` (renamed with an Identity node). */
  output(name: string, from: string, dims: readonly Dim[]): void {
    this.nodes.push({ opType: 'Identity', input: [from], output: [name], name: `${name}_identity` });
    this.outputs.push(GraphBuilder.valueInfo(name, dims));
  }

  /** A float32 constant (initializer) of the given dims; returns its name. */
  constFloat(dims: readonly number[], values: ArrayLike<number>, hint = 'w'): string {
    const count = dims.reduce((a, b) => a * b, 1);
    if (values.length !== count) throw new Error(`GraphBuilder.constFloat: ${values.length} values for dims [${dims.join(', ')}]`);
    const name = `${hint}_${this.counter++}`;
    this.initializers.push({ name, dims: [...dims], dataType: onnx.TensorProto.DataType.FLOAT, floatData: Array.from(values) });
    return name;
  }

  /** An int64 1-D constant (e.g. a Reshape target); returns its name. */
  constInt64(values: readonly number[], hint = 'shape'): string {
    const name = `${hint}_${this.counter++}`;
    const raw = new Uint8Array(new BigInt64Array(values.map(BigInt)).buffer);
    this.initializers.push({ name, dims: [values.length], dataType: onnx.TensorProto.DataType.INT64, rawData: raw });
    return name;
  }

  /** An int64 scalar constant (e.g. a Gather index); returns its name. */
  constInt64Scalar(value: number, hint = 'index'): string {
    const name = `${hint}_${this.counter++}`;
    const raw = new Uint8Array(new BigInt64Array([BigInt(value)]).buffer);
    this.initializers.push({ name, dims: [], dataType: onnx.TensorProto.DataType.INT64, rawData: raw });
    return name;
  }

  /**
   * Appends a node; returns its (single) output's name.
   *
   * @param attrs Integer, float or integer-list attributes.
   */
  node(opType: string, inputs: readonly string[], attrs: Record<string, number | number[]> = {}, ints: readonly string[] = []): string {
    const out = `${opType.toLowerCase()}_${this.counter++}`;
    const attribute: IAttributeProto[] = Object.entries(attrs).map(([name, v]) => {
      if (Array.isArray(v)) return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: v };
      if (ints.includes(name) || Number.isInteger(v)) return { name, type: onnx.AttributeProto.AttributeType.INT, i: v };
      return { name, type: onnx.AttributeProto.AttributeType.FLOAT, f: v };
    });
    this.nodes.push({ opType, input: [...inputs], output: [out], name: out, attribute });
    return out;
  }

  /** Serialises the model (ModelProto bytes). */
  build(docString: string): Uint8Array {
    const model = onnx.ModelProto.create({
      irVersion: EXAMPLE_IR_VERSION,
      producerName: 'curbside make-example-models',
      docString,
      opsetImport: [{ domain: '', version: EXAMPLE_OPSET }],
      graph: { name: this.name, node: this.nodes, initializer: this.initializers, input: this.inputs, output: this.outputs },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}
