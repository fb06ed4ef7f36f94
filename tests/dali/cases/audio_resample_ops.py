# audio_resample by scale, by rates (per-sample rates from the decoder), by output length, to
# int16 and uint8 from float and from uint8; exact (DALI's windowed sinc in the same float
# arithmetic).
# oracle: checks=outputs,serialize
import os
from nvidia.dali import pipeline_def, fn, types

# audio clips made by samples/c/make_audio (DALI side first; dalic reads the same files)
AUDIO = "/tmp/dalic-oracle-audio"
if __name__ == "__oracle__" and not os.path.isdir(AUDIO):
    import subprocess
    subprocess.run(["build/release/samples/make_audio", AUDIO, "8"], check=True)


@pipeline_def(batch_size=4, num_threads=2, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(file_root=AUDIO, files=["clip_00.wav", "clip_01.flac", "clip_02.wav", "clip_04.wav"])
    a, sr = fn.decoders.audio(enc)
    m, _ = fn.decoders.audio(enc, downmix=True)
    r1 = fn.audio_resample(a, scale=0.75)
    r2 = fn.audio_resample(m, in_rate=sr, out_rate=8000, quality=90)
    r3 = fn.audio_resample(m, out_length=5000, dtype=types.INT16)
    u8 = fn.audio_resample(m, scale=1.0, dtype=types.UINT8)
    r4 = fn.audio_resample(u8, scale=1.5, dtype=types.INT16, quality=0)
    r5 = fn.audio_resample(m, scale=0.5, dtype=types.UINT8)
    return r1, r2, r3, r4, r5


pipe = oracle_pipe()
