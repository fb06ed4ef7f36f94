# decoders.audio on 16-bit WAV (mono 16 kHz, stereo 44.1 kHz) and FLAC (22.05 kHz): float,
# int16 and int32, channels kept and downmixed, resampled to 16 kHz at two qualities, the
# legacy ops.AudioDecoder name; exact (libsndfile's conversions, DALI's resampler).
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
    enc, _ = fn.readers.file(file_root=AUDIO, files=["clip_00.wav", "clip_01.flac", "clip_02.wav", "clip_05.flac"])
    a, sr = fn.decoders.audio(enc)
    b, _ = fn.decoders.audio(enc, dtype=types.INT16)
    c, _ = fn.decoders.audio(enc, dtype=types.INT32, downmix=True)
    d, sr2 = fn.decoders.audio(enc, downmix=True, sample_rate=16000)
    e, _ = fn.decoders.audio(enc, dtype=types.INT16, sample_rate=22050, quality=10)
    return a, sr, b, c, d, sr2, e


pipe = oracle_pipe()
