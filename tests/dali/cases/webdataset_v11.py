# readers.webdataset with a v1.1 index (no file names: the sources end in ':'), stick_to_shard
# and pad_last_batch.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_webdataset()

D = "/tmp/dalic_oracle_wds"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=2)
def oracle_pipe():
    f32, cls = fn.readers.webdataset(
        paths=D + "/shard-0.tar", index_paths=D + "/shard-0.v11.idx", ext=["f32", "cls"],
        num_shards=3, shard_id=2, stick_to_shard=True, pad_last_batch=True)
    return f32, cls, fn.get_property(f32, key="source_info")


pipe = oracle_pipe()
