# reinterpret: encoded bytes read as other types — the innermost extent rescaled without a
# shape (uint8 -> int32 / uint16), a shape with a wildcard counted in bytes (uint8 -> float
# [-1, 2]), src_dims with a new type, a layout, and a per-sample shape input.
from nvidia.dali import pipeline_def, fn, types

FILES = ["samples/images/cat/chelsea.jpg", "samples/images/space/rocket.jpg"]


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=FILES)
    head = fn.slice(enc, 0, 48, axes=[0])  # 48 bytes of each file
    as_i32 = fn.reinterpret(head, dtype=types.INT32)
    as_u16 = fn.reinterpret(fn.reshape(head, shape=[6, 8]), dtype=types.UINT16, layout="HW")
    as_f32 = fn.reinterpret(head, dtype=types.FLOAT, shape=[-1, 2])
    kept = fn.reinterpret(fn.reshape(head, shape=[4, 12]), src_dims=[1, 0], dtype=types.INT16)
    shape_in = fn.constant(idata=[3, 4], dtype=types.INT32)
    by_input = fn.reinterpret(head, shape_in, dtype=types.INT32)
    same = fn.reinterpret(as_i32, layout="X")
    return as_i32, as_u16, as_f32, kept, by_input, same


pipe = oracle_pipe()
