# readers.caffe on Datum wire forms (as protobuf parses them): data given twice (the later
# wins), a label and then a label of another wire type (skipped), unknown fields, float_data
# unpacked and packed (not read).
# oracle: iterations=2
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

D = "/tmp/dalic_oracle_caffe_wire"

if __name__ == "__oracle__":
    import struct
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data as od

    def vint(field, v):
        return od._varint(field << 3) + od._varint(v)

    items = []
    for k in range(5):
        rec = (od._ld(4, b"old") + vint(5, k + 1) + od._ld(5, b"x") + od._ld(99, b"unknown") +
               od._varint(6 << 3 | 5) + struct.pack("<f", 1.0) +
               od._ld(6, struct.pack("<2f", 2.0, k)) + od._ld(4, b"IMG%d" % k) + vint(42, 7))
        items.append((b"%04d" % k, rec))
    od.fresh_dir(D)
    od.lmdb_write(D + "/wire.lmdb", items)


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    img, lab = fn.readers.caffe(path=D + "/wire.lmdb")
    return img, lab


pipe = oracle_pipe()
