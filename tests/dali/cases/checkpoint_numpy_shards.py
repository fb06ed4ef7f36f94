# Checkpoints both ways over readers.numpy: a sharded random_shuffle (shard 1 of 2, a buffer of
# 4) beside random.normal and noise.gaussian; the checkpoint after 4 batches of 3 lies in the
# reader's third epoch.
# oracle: checkpoint=4
# oracle: iterations=3
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    arr = fn.readers.numpy(file_root=D, file_filter="a*.npy", random_shuffle=True, initial_fill=4,
                           num_shards=2, shard_id=1)
    n = fn.random.normal(shape=[2])
    return arr, fn.get_property(arr, key="source_info"), n, fn.noise.gaussian(n, stddev=2.0)


pipe = oracle_pipe()
