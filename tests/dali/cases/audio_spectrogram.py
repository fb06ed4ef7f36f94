# spectrogram: FFTW against DALI's FFTS, so the power differs by float rounding (observed
# 2.5e-4 on values up to about 3000, relative 1e-6); atol 1e-3. Both layouts, nfft > window_length, power 1,
# uncentred windows, zero padding, a window function given.
# oracle: atol=1e-3
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
    a, sr = fn.decoders.audio(enc, downmix=True, sample_rate=16000)
    s1 = fn.spectrogram(a, nfft=512, window_length=320, window_step=160)
    s2 = fn.spectrogram(a, nfft=512, window_length=400, window_step=160, layout="tf", power=1,
                        center_windows=False)
    s3 = fn.spectrogram(a, window_length=256, window_step=100, reflect_padding=False)
    s4 = fn.spectrogram(a, window_length=8, window_step=3, window_fn=[0.1, 0.5, 1, 1, 1, 1, 0.5, 0.1])
    return s1, s2, s3, s4


pipe = oracle_pipe()
