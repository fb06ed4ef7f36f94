# readers.tfrecord over the sample photos in three TFRecord files (written by
# tests/dali/oracle_data.py): string, int64 and float32 features, FixedLen and VarLen (with a
# partial shape), the buffer shuffle, sharding, and each sample's source_info.
# oracle: iterations=5
# (DALI's serialize() drops a VarLenFeature's partial shape, so this case checks outputs only;
# tfrecord_serialize.py round-trips the protobuf.)
# oracle: checks=outputs
from nvidia.dali import pipeline_def, fn
import nvidia.dali.tfrecord as tfrec

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_tfrecords()

D = "/tmp/dalic_oracle_tfrecord"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=17)
def oracle_pipe():
    out = fn.readers.tfrecord(
        path=[D + "/train-0.tfrecord", D + "/train-1.tfrecord", D + "/train-2.tfrecord"],
        index_path=[D + "/train-0.idx", D + "/train-1.idx", D + "/train-2.idx"],
        features={
            "image/encoded": tfrec.FixedLenFeature((), tfrec.string, ""),
            "image/class/label": tfrec.FixedLenFeature([1], tfrec.int64, -1),
            "image/object/bbox": tfrec.VarLenFeature([4], tfrec.float32, 0.0),
            "image/size": tfrec.VarLenFeature(tfrec.int64, 0),
            "image/filename": tfrec.FixedLenFeature([], tfrec.string, ""),
        },
        random_shuffle=True, initial_fill=4, num_shards=2, shard_id=1)
    src = fn.get_property(out["image/encoded"], key="source_info")
    return (out["image/encoded"], out["image/class/label"], out["image/object/bbox"],
            out["image/size"], out["image/filename"], src)


pipe = oracle_pipe()
