# readers.numpy with a region of interest: per-sample relative starts (random, so DALI's
# Philox draws too), an absolute shape over roi_axes [1, 0] reaching outside the array, padded
# with fill_value (rounded as ConvertSat), on C and Fortran order files read through a
# file_list with pad_last_batch on the second of two shards.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=9)
def oracle_pipe():
    start = fn.random.uniform(range=[-0.25, 0.75], shape=[2])
    arr = fn.readers.numpy(file_list=D + "/list.txt", rel_roi_start=start, roi_shape=[6, 4],
                           roi_axes=[1, 0], out_of_bounds_policy="Pad", fill_value=-7.5,
                           num_shards=2, shard_id=1, pad_last_batch=True)
    return arr, fn.get_property(arr, key="source_info")


pipe = oracle_pipe()
