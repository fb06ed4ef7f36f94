# readers.nemo_asr's order over 23 entries for 15 batches of 5 (several epochs), as DALI's
# Loader: shuffle_after_epoch=True, shuffle_after_epoch_seed=99.
# oracle: iterations=15
# oracle: checks=outputs,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_nemo()

D = "/tmp/dalic_oracle_nemo"


@pipeline_def(batch_size=5, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    audio, idx = fn.readers.nemo_asr(manifest_filepaths=[D + "/many.json"], read_text=False,
                                     read_sample_rate=False, read_idxs=True,
                                     shuffle_after_epoch=True, shuffle_after_epoch_seed=99)
    return idx, audio


pipe = oracle_pipe()
