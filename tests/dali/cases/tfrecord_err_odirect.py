# readers.tfrecord: use_o_direct needs dont_use_mmap=True (DALI's check).
# oracle: error=Cannot use use_o_direct with ``dont_use_mmap=False``.
from nvidia.dali import pipeline_def, fn
import nvidia.dali.tfrecord as tfrec

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_tfrecords()

D = "/tmp/dalic_oracle_tfrecord"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3)
def oracle_pipe():
    out = fn.readers.tfrecord(path=D + "/train-0.tfrecord", index_path=D + "/train-0.idx",
                              features={"image/filename": tfrec.FixedLenFeature([], tfrec.string, "")},
                              use_o_direct=True)
    return out["image/filename"]


pipe = oracle_pipe()
