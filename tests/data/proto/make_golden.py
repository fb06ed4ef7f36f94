#!/usr/bin/env python3
"""Writes the golden serialized pipelines, encoded by hand from the field tables of
docs/dali-behaviour.md §1.1 (no protobuf library, no dalic code): what DALI's
Pipeline.serialize() writes (§1.2-1.4) for

    @pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=42,
                  exec_dynamic=False, output_dtype=[None, types.FLOAT],
                  output_ndim=[None, 2])
    def coin_cast():
        c = fn.random.coin_flip(probability=0.25, shape=[2, 3])   # __CoinFlip_0
        f = fn.cast(c, dtype=types.FLOAT, name="to_float")
        return c, f

-> coin_cast.pb, and a legacy-style file (external_inputs, `_ExternalSource`, the
`CoinFlip` alias, no instance names or logical ids, C++-style output names) -> legacy.pb.
Run from this directory: python3 make_golden.py
"""
import struct


def varint(v):
    v &= (1 << 64) - 1  # negative int32/int64 are written as 10-byte two's complement
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def num(field, v):  # int32 / int64 / bool (wire type 0)
    return key(field, 0) + varint(int(v))


def ld(field, data):  # strings and embedded messages (wire type 2)
    if isinstance(data, str):
        data = data.encode()
    return key(field, 2) + varint(len(data)) + data


def f32(field, v):  # float (wire type 5)
    return key(field, 5) + struct.pack("<f", v)


# Argument: 1 name, 2 type, 3 floats, 4 ints, 5 strings, 6 bools, 7 extra_args, 8 is_vector
def arg_str(name, s):
    return ld(1, name) + ld(2, "string") + ld(5, s) + num(8, False)


def arg_int(name, i):
    return ld(1, name) + ld(2, "int64") + num(4, i) + num(8, False)


def arg_float(name, x):
    return ld(1, name) + ld(2, "float") + f32(3, x) + num(8, False)


def arg_bool(name, b):
    return ld(1, name) + ld(2, "bool") + num(6, b) + num(8, False)


def arg_ints(name, values):
    elems = b"".join(ld(7, arg_int("element %d" % i, v)) for i, v in enumerate(values))
    return ld(1, name) + ld(2, "int64") + elems + num(8, True)


# InputOutput: 1 name, 2 device, 3 is_argument_input, 4 arg_name, 5 dtype, 6 ndim
def io(name, device, dtype=None, ndim=None):
    m = ld(1, name) + ld(2, device) + num(3, False)
    if dtype is not None:
        m += num(5, dtype)
    if ndim is not None:
        m += num(6, ndim)
    return m


# OpDef: 1 name, 2 input, 3 output, 4 args, 5 inst_name, 6 logical_id
def op(name, inputs, outputs, args, inst=None, logical_id=None):
    m = ld(1, name)
    m += b"".join(ld(2, i) for i in inputs)
    m += b"".join(ld(3, o) for o in outputs)
    m += b"".join(ld(4, a) for a in args)
    if inst is not None:
        m += ld(5, inst)
    if logical_id is not None:
        m += num(6, logical_id)
    return m


coin = op("random__CoinFlip", [], [io("__CoinFlip_0", "cpu")],
          [arg_str("device", "cpu"), arg_float("probability", 0.25), arg_ints("shape", [2, 3]),
           arg_bool("preserve_name", False), arg_str("_module", "nvidia.dali.fn.random"),
           arg_str("_display_name", "coin_flip")],
          inst="__CoinFlip_0", logical_id=0)
cast = op("Cast", [io("__CoinFlip_0", "cpu")], [io("to_float", "cpu")],
          [arg_str("device", "cpu"), arg_int("dtype", 9), arg_bool("preserve_name", True),
           arg_str("_module", "nvidia.dali.fn"), arg_str("_display_name", "cast")],
          inst="to_float", logical_id=1)

# PipelineDef: 1 num_threads, 2 batch_size, 5 op, 6 external_inputs, 7 pipe_outputs,
# 8 device_id, 9 seed, 10 enable_checkpointing, 11 executor_type, 12 executor_flags,
# 13/14 prefetch_queue_depth_cpu/gpu, 15 bytes_per_sample_hint
golden = (num(1, 2) + num(2, 4) + ld(5, coin) + ld(5, cast)
          + ld(7, io("__CoinFlip_0", "cpu", -1, -1)) + ld(7, io("to_float", "cpu", 9, 2))
          + num(8, -99999) + num(9, 42) + num(10, False) + num(11, 3) + num(12, 0)
          + num(13, 2) + num(14, 2) + num(15, 0))

legacy_cast = op("Cast", [io("ext_data", "cpu")], [io("cast_out", "cpu")],
                 [arg_str("device", "cpu"), arg_int("dtype", 7)])
legacy_coin = op("CoinFlip", [], [io("coin_out", "cpu")],
                 [arg_str("device", "cpu"), arg_float("probability", 0.5)])
legacy_src = op("_ExternalSource", [], [io("src_out", "cpu")],
                [arg_str("device", "cpu")], inst="src")
legacy = (num(2, 8) + ld(5, legacy_cast) + ld(5, legacy_coin) + ld(5, legacy_src)
          + ld(6, "ext_data") + ld(7, io("cast_out", "cpu")) + ld(7, io("coin_out", "cpu"))
          + ld(7, io("src_out", "cpu")) + num(8, -1) + num(13, 3))

with open("coin_cast.pb", "wb") as f:
    f.write(golden)
with open("legacy.pb", "wb") as f:
    f.write(legacy)
