# oracle: error=Found distinct types: int32 and uint8
# The two branches of an `if` must give one type: uint8 // 2 is int32 in DALI (the integer
# literal is an int32 constant), so merging it with the uint8 images fails.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=8, enable_conditionals=True)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    if fn.random.coin_flip(dtype=types.BOOL):
        images = images // 2
    return images


pipe = oracle_pipe()
