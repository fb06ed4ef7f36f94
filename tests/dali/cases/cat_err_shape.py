# oracle: error=Concatenated tensors can differ in size only in the concatenation axis
# cat along H of photos and their transposes (W x H) fails on the W extents.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.cat(images, fn.transpose(images, perm=[1, 0, 2]), axis=0)


pipe = oracle_pipe()
