# Several pipelines in one file. `dalic run two_pipelines.py` takes the first one created;
# `--pipeline NAME` picks another by the variable it is bound to (train, validation) or by
# its function name.
from nvidia.dali import pipeline_def, fn, types

image_dir = "samples/images"


@pipeline_def(num_threads=2, device_id=None, seed=17)
def image_pipeline(training):
    jpegs, labels = fn.readers.file(file_root=image_dir, random_shuffle=training)
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    if training:
        images = fn.random_resized_crop(images, size=[96, 96])
        images = fn.flip(images, horizontal=fn.random.coin_flip())
    else:
        images = fn.resize(images, size=[96, 96])
    return images, labels


train = image_pipeline(True, batch_size=8)
validation = image_pipeline(False, batch_size=2)
