# readers.tfrecord through both serialized forms: DALI's "TFRecord" feature Arguments read by
# dalic and dalic's read by DALI (every feature type, fixed and variable length), sequential
# reading across three files with stick_to_shard and pad_last_batch.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn
import nvidia.dali.tfrecord as tfrec

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_tfrecords()

D = "/tmp/dalic_oracle_tfrecord"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    out = fn.readers.tfrecord(
        path=[D + "/train-0.tfrecord", D + "/train-1.tfrecord", D + "/train-2.tfrecord"],
        index_path=[D + "/train-0.idx", D + "/train-1.idx", D + "/train-2.idx"],
        features={
            "image/filename": tfrec.FixedLenFeature([], tfrec.string, "none"),
            "image/class/label": tfrec.FixedLenFeature([1], tfrec.int64, -1),
            "image/object/bbox": tfrec.VarLenFeature(tfrec.float32, 0.5),
            "image/size": tfrec.FixedLenFeature([3], tfrec.int64, 7),
        },
        num_shards=5, shard_id=3, stick_to_shard=True, pad_last_batch=True)
    return (out["image/filename"], out["image/class/label"], out["image/object/bbox"],
            out["image/size"])


pipe = oracle_pipe()
