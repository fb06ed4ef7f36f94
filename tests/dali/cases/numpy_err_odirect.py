# readers.numpy: DALI's error for use_o_direct=True.
# oracle: error=Cannot use use_o_direct with
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.readers.numpy(file_root=D, files=["a00.npy", "a01.npy"], use_o_direct=True)


pipe = oracle_pipe()
