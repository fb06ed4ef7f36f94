# readers.numpy: trim_to_shape cutting a window given by roi_start / rel_roi_end to the array
# (one start value for every dim), on every array of the set, shuffled after each epoch, read
# without mmap.
# oracle: iterations=6
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    arr = fn.readers.numpy(file_root=D, file_filter="a*.npy", roi_start=[-1],
                           rel_roi_end=[0.6, 1.5, 0.5], out_of_bounds_policy="trim_to_shape",
                           shuffle_after_epoch=True, dont_use_mmap=True)
    return arr, fn.get_property(arr, key="source_info")


pipe = oracle_pipe()
