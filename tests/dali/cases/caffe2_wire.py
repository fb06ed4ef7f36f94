# readers.caffe2 on TensorProtos wire forms (as protobuf parses them): data_type given twice
# (the later wins), an unknown DataType value and a data_type of another wire type (both
# skipped), unknown fields, two string_data (the first is the image), int32 / float / int64
# values split over unpacked and packed runs, doubles and a name that are not read.
# oracle: iterations=2
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

D = "/tmp/dalic_oracle_caffe2_wire"

if __name__ == "__oracle__":
    import struct
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data as od

    def vint(field, v):
        return od._varint(field << 3) + od._varint(v)

    def f32(v):
        return od._varint(3 << 3 | 5) + struct.pack("<f", v)

    items = []
    for k in range(5):
        img = (vint(2, 3) + od._ld(6, b"IMG%d" % k) + vint(2, 4) + vint(2, 11) +
               od._ld(2, b"\x03") + od._ld(99, b"unknown") + od._ld(7, b"name") +
               od._ld(6, b"second"))
        lab = (vint(2, 2) + od._ld(4, od._varint(k) + od._varint(-k - 1)) + vint(4, 3 * k) +
               od._ld(4, od._varint(1 << 20)))
        flt = (f32(0.5 * k) + od._ld(3, struct.pack("<2f", 1.5, -k)) +
               od._ld(9, struct.pack("<d", 7.0)) + f32(2.25))
        i64 = (vint(2, 10) + vint(10, -5 * k) + od._ld(10, od._varint(1 << 40) + od._varint(k)) +
               vint(3, 1))
        rec = od._ld(1, img) + vint(2, 7) + od._ld(1, lab) + od._ld(1, flt) + od._ld(1, i64)
        items.append((b"%04d" % k, rec))
    od.fresh_dir(D)
    od.lmdb_write(D + "/wire.lmdb", items)


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    img, lab, flt, i64 = fn.readers.caffe2(path=D + "/wire.lmdb", label_type=2,
                                           additional_inputs=2)
    return img, lab, flt, i64


pipe = oracle_pipe()
