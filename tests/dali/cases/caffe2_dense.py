# readers.caffe2: no image, dense int32 labels and one additional float proto, stick_to_shard.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_caffe2()

D = "/tmp/dalic_oracle_caffe2"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    lab, extra = fn.readers.caffe2(path=D + "/sparse.lmdb", image_available=False, label_type=2,
                                   additional_inputs=1, num_shards=2, shard_id=1,
                                   stick_to_shard=True)
    return lab, extra


pipe = oracle_pipe()
