# oracle: error=Tensor stacking requires that all tensors being stacked are of equal shape
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.stack(images, fn.transpose(images, perm=[1, 0, 2]))


pipe = oracle_pipe()
