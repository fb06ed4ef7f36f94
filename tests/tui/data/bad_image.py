# A pipeline whose second file is not an image: the decoder fails on sample 1 of iteration 0.
# The TUI tests use it to check that the error appears in place (operator, sample, file).
from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=1)
def bad_image_pipeline():
    jpegs, labels = fn.readers.file(
        files=["samples/images/cat/chelsea.jpg", "tests/data/not_an_image.jpg"], labels=[0, 1]
    )
    images = fn.decoders.image(jpegs, device="cpu")
    return images, labels


pipe = bad_image_pipeline()
