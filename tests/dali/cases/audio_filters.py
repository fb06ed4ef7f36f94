# preemphasis_filter (the three borders, int16 output, int16 input) and nonsilent_region
# (float and int16 input, windows, a reference power); exact.
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
    a, sr = fn.decoders.audio(enc, downmix=True)
    i16, _ = fn.decoders.audio(enc, downmix=True, dtype=types.INT16)
    p1 = fn.preemphasis_filter(a)
    p2 = fn.preemphasis_filter(a, border="zero", preemph_coeff=0.5)
    p3 = fn.preemphasis_filter(a, border="reflect", dtype=types.INT16)
    p4 = fn.preemphasis_filter(i16, dtype=types.INT32)
    b1, l1 = fn.nonsilent_region(a)
    b2, l2 = fn.nonsilent_region(a, cutoff_db=-30, window_length=512)
    b3, l3 = fn.nonsilent_region(i16, cutoff_db=-40, window_length=100)
    b4, l4 = fn.nonsilent_region(a, reference_power=0.001, window_length=256, reset_interval=1024)
    return p1, p2, p3, p4, b1, l1, b2, l2, b3, l3, b4, l4


pipe = oracle_pipe()
