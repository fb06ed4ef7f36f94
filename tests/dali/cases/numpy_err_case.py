# readers.numpy: DALI 2.4 takes 'trim_to_shape' (and 'error') only in lower case, 'pad' in any.
# oracle: error=Not supported out_of_bounds_policy: TRIM_TO_SHAPE
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_numpy()

D = "/tmp/dalic_oracle_npy"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.readers.numpy(file_root=D, files=["a00.npy", "a01.npy"], roi_start=[1],
                            out_of_bounds_policy="TRIM_TO_SHAPE")


pipe = oracle_pipe()
