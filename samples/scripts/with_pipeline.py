# The Pipeline object style: operators are created inside `with pipe:` and the outputs
# are declared with set_outputs. This one reads the same directory with two readers, one
# in file order and one shuffled, and decodes both.
from nvidia.dali.pipeline import Pipeline
import nvidia.dali.fn as fn
import nvidia.dali.types as types

image_dir = "samples/images"

pipe = Pipeline(batch_size=4, num_threads=2, device_id=None, seed=12)
with pipe:
    ordered, ordered_labels = fn.readers.file(file_root=image_dir, name="OrderedReader")
    shuffled, shuffled_labels = fn.readers.file(
        file_root=image_dir, random_shuffle=True, initial_fill=16, name="ShuffledReader"
    )
    ordered_images = fn.decoders.image(ordered, output_type=types.GRAY)
    shuffled_images = fn.decoders.image(shuffled, output_type=types.RGB)
    pipe.set_outputs(ordered_images, ordered_labels, shuffled_images, shuffled_labels)

pipe.build()
