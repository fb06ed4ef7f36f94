# Checkpoints both ways over readers.tfrecord with shuffle_after_epoch (DALI reshuffles the
# order of the files from the epoch's seed in checkpoint mode), shard 0 of 2, beside
# random.choice; the checkpoint after 5 batches of 5 is several epochs in.
# oracle: checkpoint=5
# oracle: iterations=4
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_tfrecords()

import nvidia.dali.tfrecord as tfrec

D = "/tmp/dalic_oracle_tfrecord"


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    out = fn.readers.tfrecord(
        path=[D + "/train-0.tfrecord", D + "/train-1.tfrecord", D + "/train-2.tfrecord"],
        index_path=[D + "/train-0.idx", D + "/train-1.idx", D + "/train-2.idx"],
        features={"image/filename": tfrec.FixedLenFeature([], tfrec.string, "")},
        shuffle_after_epoch=True, shuffle_after_epoch_seed=99, num_shards=2, shard_id=0)
    return out["image/filename"], fn.random.choice(7)


pipe = oracle_pipe()
