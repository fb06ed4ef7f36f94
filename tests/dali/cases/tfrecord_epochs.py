# readers.tfrecord with shuffle_after_epoch: each epoch DALI reshuffles the order of the three
# files (mt19937_64 seeded with shuffle_after_epoch_seed + (epoch << 32)), keeping the records
# of a file in order; two shards, eight batches (several epochs).
# oracle: iterations=8
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn
import nvidia.dali.tfrecord as tfrec

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_tfrecords()

D = "/tmp/dalic_oracle_tfrecord"


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    out = fn.readers.tfrecord(
        path=[D + "/train-0.tfrecord", D + "/train-1.tfrecord", D + "/train-2.tfrecord"],
        index_path=[D + "/train-0.idx", D + "/train-1.idx", D + "/train-2.idx"],
        features={"image/filename": tfrec.FixedLenFeature([], tfrec.string, "")},
        shuffle_after_epoch=True, shuffle_after_epoch_seed=99, num_shards=2, shard_id=0)
    return out["image/filename"]


pipe = oracle_pipe()
