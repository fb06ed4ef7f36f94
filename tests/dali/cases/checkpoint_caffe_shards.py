# Checkpoints both ways over readers.caffe with random_shuffle on shard 2 of 3 and
# random.uniform with a shape; the checkpoint after 5 batches of 3 is epochs in.
# oracle: checkpoint=5
# oracle: iterations=3
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_caffe()

D = "/tmp/dalic_oracle_caffe"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    img, lab = fn.readers.caffe(path=D + "/photos.lmdb", random_shuffle=True, initial_fill=3,
                                num_shards=3, shard_id=2)
    return img, lab, fn.random.uniform(range=[-1, 1], shape=[3])


pipe = oracle_pipe()
