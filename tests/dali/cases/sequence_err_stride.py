# readers.sequence: a stride of 0 (DALI's error).
# oracle: error=Stride must be positive
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_sequences()

D = "/tmp/dalic_oracle_seq"


@pipeline_def(batch_size=1, num_threads=1, device_id=None, seed=1)
def oracle_pipe():
    return fn.readers.sequence(file_root=D, sequence_length=2, stride=0)


pipe = oracle_pipe()
