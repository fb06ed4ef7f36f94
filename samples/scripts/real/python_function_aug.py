# oracle: checks=outputs
# (DALI cannot serialize python_function: "Could not serialize the operator")
# Pattern: a custom augmentation written as a Python function and run by python_function,
# with a functools.partial to bind its parameter.
from functools import partial
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def


def reverse_rows(image, keep):
    rows = image[::-1]
    return rows if keep else image


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=3,
              exec_async=False, exec_pipelined=False)
def aug_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.GRAY)
    images = fn.resize(images, resize_x=8, resize_y=8)
    flipped = fn.python_function(images, function=partial(reverse_rows, keep=True))
    return flipped, labels


pipe = aug_pipe()
