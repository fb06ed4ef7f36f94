# readers.sequence: gray frames (image_type GRAY), sequences of 2 consecutive frames, the
# second of two shards, stick_to_shard, pad_last_batch.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_sequences()

D = "/tmp/dalic_oracle_seq"


@pipeline_def(batch_size=3, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.readers.sequence(file_root=D, sequence_length=2, image_type=types.GRAY,
                               shard_id=1, num_shards=2, stick_to_shard=True,
                               pad_last_batch=True)


pipe = oracle_pipe()
