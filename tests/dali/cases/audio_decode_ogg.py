# decoders.audio on OGG Vorbis: DALI bundles its own libvorbis, Debian's decodes within one
# float ulp at full scale (observed 1.2e-7), so atol 2e-7.
# oracle: atol=2e-7
# oracle: checks=outputs,serialize
import os
from nvidia.dali import pipeline_def, fn, types

# audio clips made by samples/c/make_audio (DALI side first; dalic reads the same files)
AUDIO = "/tmp/dalic-oracle-audio"
if __name__ == "__oracle__" and not os.path.isdir(AUDIO):
    import subprocess
    subprocess.run(["build/release/samples/make_audio", AUDIO, "8"], check=True)


@pipeline_def(batch_size=2, num_threads=2, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(file_root=AUDIO, files=["clip_03.ogg", "clip_07.ogg"])
    a, sr = fn.decoders.audio(enc, downmix=True)
    return a, sr


pipe = oracle_pipe()
