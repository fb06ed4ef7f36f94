# oracle: error=The volume of the new shape should match
# squeeze refuses to remove a dimension whose extent is not 1.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.squeeze(images, axis_names="C")


pipe = oracle_pipe()
