# readers.nemo_asr over WAV and FLAC (exact) without resampling or downmixing: int16 and int32 straight from
# libsndfile, stereo clips [frames, 2]; float downmixed at quality 10 to 22.05 kHz; the
# legacy ops.NemoAsrReader name; min_duration / max_duration drop entries.
# oracle: iterations=3
# oracle: checks=outputs,serialize,names
import nvidia.dali.ops as ops
import nvidia.dali.types as types
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_nemo()

D = "/tmp/dalic_oracle_nemo"


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    a16 = fn.readers.nemo_asr(manifest_filepaths=[D + "/pcm.json"], dtype=types.INT16,
                              downmix=False, read_sample_rate=False, read_text=False)
    a32, t = fn.readers.nemo_asr(manifest_filepaths=[D + "/pcm.json"], dtype=types.INT32,
                                 downmix=False, read_sample_rate=False, min_duration=0.7,
                                 max_duration=1.2)
    legacy = ops.NemoAsrReader(manifest_filepaths=[D + "/pcm.json"], sample_rate=22050,
                               quality=10, read_text=False, read_idxs=True)
    f, sr, i = legacy()
    return a16, a32, t, f, sr, i


pipe = oracle_pipe()
