# readers.webdataset: DALI's error for bool.
# oracle: error=Unsupported output dtype
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_webdataset()

D = "/tmp/dalic_oracle_wds"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=2)
def oracle_pipe():
    out = fn.readers.webdataset(paths=D + "/shard-0.tar", index_paths=D + "/shard-0.idx",
                                ext=["cls"], dtypes=[types.BOOL])
    return out


pipe = oracle_pipe()
