# mel_filter_bank (slaney and htk, normalized or not, band limits, both layouts), to_decibels
# (reference max and given, cutoffs) and mfcc (DCT types, orthonormal, lifter, axis) over a
# spectrogram: the spectrogram's rounding differences carry through, so atol 1e-3 (observed
# 4e-4 on dB values around -80..0).
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
    s = fn.spectrogram(a, nfft=512, window_length=320, window_step=160)
    st = fn.spectrogram(a, nfft=512, window_length=400, window_step=160, layout="tf")
    m1 = fn.mel_filter_bank(s, sample_rate=16000, nfilter=64)
    m2 = fn.mel_filter_bank(st, sample_rate=16000, nfilter=40, mel_formula="htk", normalize=False,
                            freq_low=100, freq_high=7000)
    d1 = fn.to_decibels(m1, multiplier=10, cutoff_db=-80)
    d2 = fn.to_decibels(m2, reference=1.0)
    c1 = fn.mfcc(d1, n_mfcc=13)
    c2 = fn.mfcc(d1, dct_type=3, normalize=True, lifter=22)
    c3 = fn.mfcc(d2, axis=1, dct_type=1)
    c4 = fn.mfcc(d1, dct_type=4, normalize=True)
    return fn.to_decibels(m1, multiplier=20, reference=0.5, cutoff_db=-60), d1, d2, c1, c2, c3, c4


pipe = oracle_pipe()
