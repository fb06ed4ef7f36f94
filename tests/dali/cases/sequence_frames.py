# readers.sequence: sequences of 3 frames 2 apart every 2 frames, streams of 7, 3 and 10
# frames (one too short), non-frame files left out, random_shuffle.
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_sequences()

D = "/tmp/dalic_oracle_seq"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=4)
def oracle_pipe():
    return fn.readers.sequence(file_root=D, sequence_length=3, step=2, stride=2,
                               random_shuffle=True, initial_fill=4)


pipe = oracle_pipe()
