# readers.mxnet: shuffle_after_epoch reorders the files each epoch, read without mmap, with
# pad_last_batch.
# oracle: iterations=6
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_recordio()

D = "/tmp/dalic_oracle_rec"


@pipeline_def(batch_size=5, num_threads=2, device_id=None, seed=8)
def oracle_pipe():
    img, lab = fn.readers.mxnet(path=[D + "/part-0.rec", D + "/part-1.rec"],
                                index_path=[D + "/all.idx"], shuffle_after_epoch=True,
                                dont_use_mmap=True, pad_last_batch=True)
    return img, lab


pipe = oracle_pipe()
