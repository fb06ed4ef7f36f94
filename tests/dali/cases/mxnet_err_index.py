# readers.mxnet: more than one index file (DALI's error).
# oracle: error=RecordIOReader supports only a single index file
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_recordio()

D = "/tmp/dalic_oracle_rec"


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=8)
def oracle_pipe():
    img, lab = fn.readers.mxnet(path=[D + "/part-0.rec", D + "/part-1.rec"],
                                index_path=[D + "/all.idx", D + "/all.idx"])
    return img, lab


pipe = oracle_pipe()
