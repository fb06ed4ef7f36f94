# readers.nemo_asr over two manifests: offsets and durations cut the audio, resampled to
# 16 kHz and downmixed; the file's own sample rate, the transcript (no terminator; empty when
# the entry has none) and the index among its manifest's kept lines; invalid lines skipped.
# Iterations wrap around the 9 entries. OGG Vorbis within a float ulp at full scale (Debian's
# libvorbis against DALI's bundled one, as audio_decode_ogg.py), so atol 2e-7.
# oracle: atol=2e-7
# oracle: iterations=4
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_nemo()

D = "/tmp/dalic_oracle_nemo"


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    audio, sr, text, idx = fn.readers.nemo_asr(
        manifest_filepaths=[D + "/main.json", D + "/more.json"], sample_rate=16000,
        read_idxs=True, name="Reader")
    return audio, sr, text, idx


pipe = oracle_pipe()
