# oracle: error=Unsupported output type: uint8
import os
from nvidia.dali import pipeline_def, fn, types

# audio clips made by samples/c/make_audio (DALI side first; dalic reads the same files)
AUDIO = "/tmp/dalic-oracle-audio"
if __name__ == "__oracle__" and not os.path.isdir(AUDIO):
    import subprocess
    subprocess.run(["build/release/samples/make_audio", AUDIO, "8"], check=True)


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(file_root=AUDIO, files=["clip_00.wav"])
    return fn.decoders.audio(enc, dtype=types.UINT8)[0]


pipe = oracle_pipe()
