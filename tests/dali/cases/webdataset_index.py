# readers.webdataset over three tar archives of the photos with DALI v1.2 index files:
# alternatives in `ext`, a float32 output, missing components as empty outputs, the buffer
# shuffle, sharding and each output's source_info ("<tar>:<offset>:<file>").
# oracle: iterations=5
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_webdataset()

D = "/tmp/dalic_oracle_wds"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=11)
def oracle_pipe():
    img, cls, f32 = fn.readers.webdataset(
        paths=[D + "/shard-0.tar", D + "/shard-1.tar", D + "/shard-2.tar"],
        index_paths=[D + "/shard-0.idx", D + "/shard-1.idx", D + "/shard-2.idx"],
        ext=["jpg;png", "cls", "f32"], dtypes=[types.UINT8, types.UINT8, types.FLOAT],
        random_shuffle=True, initial_fill=5, num_shards=2, shard_id=1)
    return (img, cls, f32, fn.get_property(img, key="source_info"),
            fn.get_property(cls, key="source_info"))


pipe = oracle_pipe()
