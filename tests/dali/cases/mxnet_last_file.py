# readers.mxnet: one record per file; DALI assigns the last record to the file before it (its
# source names that file, at an offset past its end) and shuffles it with that file's group.
# oracle: iterations=6
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_recordio_per_file()

D = "/tmp/dalic_oracle_rec1"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=8)
def oracle_pipe():
    img, lab = fn.readers.mxnet(path=[D + "/r0.rec", D + "/r1.rec", D + "/r2.rec", D + "/r3.rec"],
                                index_path=[D + "/r.idx"], shuffle_after_epoch=True)
    return img, lab, fn.get_property(img, key="source_info")


pipe = oracle_pipe()
