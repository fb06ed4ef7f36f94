# readers.caffe: encoded photos and labels, a sharded random_shuffle, sources.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_caffe()

D = "/tmp/dalic_oracle_caffe"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    img, lab = fn.readers.caffe(path=D + "/photos.lmdb", random_shuffle=True, initial_fill=3, num_shards=3, shard_id=2)
    return img, lab, fn.get_property(img, key="source_info")


pipe = oracle_pipe()
