# Pattern: a data-set builder class (TensorFlow2 ConvNets' Dataset) whose build() method
# makes a plain Pipeline object and fills it in a `with` block; __init__ only stores settings.
# dalic lists the method as `ImageDataset.build`: the class is instantiated with the --arg
# values its __init__ takes, then build() is called.
#     dalic run samples/scripts/real/builder_method.py --pipeline ImageDataset.build \
#         --arg data_dir='"samples/images"'
# oracle: pipeline=ImageDataset.build
# oracle: args=data_dir="samples/images", image_size=36
import os

import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali.pipeline import Pipeline


class ImageDataset:
    def __init__(self, data_dir, split="train", image_size=48, batch_size=2):
        if not os.path.isdir(data_dir):
            raise FileNotFoundError("Cannot find data dir: {}".format(data_dir))
        self._data_dir = data_dir
        self._split = split
        self._image_size = image_size
        self._batch_size = batch_size

    @property
    def is_training(self):
        return self._split == "train"

    def build(self):
        pipe = Pipeline(batch_size=self._batch_size, num_threads=1, device_id=None, seed=7)
        with pipe:
            jpegs, labels = fn.readers.file(file_root=self._data_dir, random_shuffle=False,
                                            name="Reader")
            images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
            images = fn.resize(images, size=(self._image_size, self._image_size))
            if self.is_training:
                images = fn.flip(images, vertical=1)
            images = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="HWC",
                                              mean=[128.0] * 3, std=[64.0] * 3)
            pipe.set_outputs(images, labels)
        return pipe
