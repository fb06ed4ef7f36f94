# oracle: error=Window length (512) can't be bigger than the FFT size (256)
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=1, num_threads=1, device_id=None)
def oracle_pipe():
    enc, _ = fn.readers.file(files=["samples/images/cat/chelsea.jpg"])
    return fn.spectrogram(fn.cast(enc, dtype=types.FLOAT), nfft=256)


pipe = oracle_pipe()
