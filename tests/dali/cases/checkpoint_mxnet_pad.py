# Checkpoints both ways over readers.mxnet with shuffle_after_epoch and pad_last_batch: the
# checkpoint after 4 batches of 5 falls after padded samples of an epoch's last batch.
# oracle: checkpoint=4
# oracle: iterations=4
from nvidia.dali import pipeline_def, fn, types

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
                                pad_last_batch=True)
    return img, lab


pipe = oracle_pipe()
