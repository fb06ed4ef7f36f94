# flip driven by random.coin_flip: the same seed flips the same images as DALI.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    h = fn.random.coin_flip()
    v = fn.random.coin_flip(probability=0.3)
    return fn.flip(images, horizontal=h, vertical=v), h, v


pipe = oracle_pipe()
# oracle: iterations=4
