# readers.mxnet: records of two RecordIO files through one index (offsets through both files,
# listed out of order), single and multiple labels, a sharded random_shuffle, sources.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_recordio()

D = "/tmp/dalic_oracle_rec"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=8)
def oracle_pipe():
    img, lab = fn.readers.mxnet(path=[D + "/part-0.rec", D + "/part-1.rec"],
                                index_path=[D + "/all.idx"], random_shuffle=True,
                                initial_fill=4, num_shards=2, shard_id=1)
    return img, lab, fn.get_property(img, key="source_info")


pipe = oracle_pipe()
