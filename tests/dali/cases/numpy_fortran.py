# readers.numpy: whole arrays from `files` (C and Fortran order, one in a subdirectory),
# read_ahead and cached headers, over three epochs.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=4)
def oracle_pipe():
    arr = fn.readers.numpy(file_root=D, files=["a02.npy", "a05.npy", "extra/a11.npy"],
                           read_ahead=True, cache_header_information=True)
    return arr


pipe = oracle_pipe()
