# oracle: error=Axis index out of range: 3 not in range [-3,2]
# reductions.sum refuses an axis past the sample's dimensions.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.reductions.sum(im, axes=[3])


pipe = oracle_pipe()
