# readers.caffe2: encoded image, single int32 label, an additional float proto and the bbox.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_caffe2()

D = "/tmp/dalic_oracle_caffe2"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    img, lab, extra, box = fn.readers.caffe2(path=D + "/photos.lmdb", additional_inputs=1, bbox=True, random_shuffle=True, initial_fill=4)
    return img, lab, extra, box


pipe = oracle_pipe()
