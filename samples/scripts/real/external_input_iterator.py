# Pattern: DALI's "ExternalInputIterator" (the external_source tutorial, copied into many
# training repositories): a plain class reads a file list, and its __next__ opens each JPEG,
# hands the encoded bytes to external_source as uint8 arrays (np.frombuffer of the file
# read, or np.fromfile) and the labels as arrays; the pipeline decodes and resizes them. The
# iterator wraps around (self.i modulo the list), so the epoch never ends.
#     dalic run samples/scripts/real/external_input_iterator.py -n 4
# oracle: iterations=4
# oracle: checks=outputs
# oracle: atol=1
import os

import numpy as np
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

images_dir = os.path.join("samples", "images")
batch_size = 3


class ExternalInputIterator(object):
    def __init__(self, batch_size):
        self.images_dir = images_dir
        self.batch_size = batch_size
        with open(os.path.join("samples", "scripts", "real", "data", "jpeg_list.txt"), "r") as f:
            self.files = [line.rstrip() for line in f if line.strip() != ""]

    def __iter__(self):
        self.i = 0
        self.n = len(self.files)
        return self

    def __next__(self):
        batch = []
        labels = []
        for _ in range(self.batch_size):
            jpeg_filename, label = self.files[self.i].split(" ")
            path = os.path.join(self.images_dir, jpeg_filename)
            if self.i % 2:
                batch.append(np.fromfile(path, dtype=np.uint8))
            else:
                f = open(path, "rb")
                batch.append(np.frombuffer(f.read(), dtype=np.uint8))
                f.close()
            labels.append(np.array([label], dtype=np.uint8))
            self.i = (self.i + 1) % self.n
        return (batch, labels)


eii = ExternalInputIterator(batch_size)


@pipeline_def(batch_size=batch_size, num_threads=2, device_id=None)
def external_input_pipe():
    jpegs, labels = fn.external_source(source=eii, num_outputs=2, dtype=types.UINT8)
    images = fn.decoders.image(jpegs, device="cpu")
    images = fn.resize(images, resize_x=96, resize_y=64)
    return images, labels


pipe = external_input_pipe()
