# readers.caffe: raw (encoded: false) images as HWC, no label output, the same database twice.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_caffe()

D = "/tmp/dalic_oracle_caffe"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    img = fn.readers.caffe(path=[D + "/raw.lmdb", D + "/raw.lmdb"], label_available=False, pad_last_batch=True)
    return img


pipe = oracle_pipe()
