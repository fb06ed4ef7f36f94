# readers.numpy: DALI's error for roi_start=[0, 0, 0], roi_end=[4, 9, 3].
# oracle: error=Slice can't be placed out of bounds with current policy
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.readers.numpy(file_root=D, files=["a00.npy", "a01.npy"], roi_start=[0, 0, 0], roi_end=[4, 9, 3])


pipe = oracle_pipe()
