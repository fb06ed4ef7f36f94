# readers.numpy over a directory: the root's files then a subdirectory's, C and Fortran order
# arrays of different shapes, file_filter, a sharded random_shuffle order and the sources ("./a00.npy").
# oracle: iterations=5
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

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
    return arr, fn.get_property(arr, key="source_info")


pipe = oracle_pipe()
