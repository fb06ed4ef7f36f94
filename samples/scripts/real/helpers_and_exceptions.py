# Pattern: the helper code that sits around a training pipeline — a frozen settings dataclass
# with a @classmethod and a @property, an iterator class (`object` base) and a generator for
# an external source this run does not use, an environment value parsed by int() under
# `except ValueError` — and a two-level Pipeline subclass that passes **kwargs up through
# super().__init__ with define_graph in the derived class.
import os
from dataclasses import dataclass

import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali.pipeline import Pipeline


def env_int(name, default):
    try:
        return int(os.environ.get(name, "unset"))
    except ValueError:
        return default


@dataclass(frozen=True)
class Crop:
    height: int = 48
    width: int = 64

    @classmethod
    def square(cls, side):
        return cls(side, side)

    @property
    def area(self):
        return self.height * self.width


class BatchIterator(object):
    def __init__(self, files, batch_size):
        self.files = files
        self.batch_size = batch_size

    def __iter__(self):
        self.i = 0
        return self

    def __next__(self):
        if self.i >= len(self.files):
            raise StopIteration
        batch = self.files[self.i:self.i + self.batch_size]
        self.i += self.batch_size
        return batch


def label_cycle(n):
    k = 0
    while True:
        yield k % n
        k += 1


class BasePipe(Pipeline):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dtype = types.FLOAT


class TrainPipe(BasePipe):
    def __init__(self, data_dir, crop, **kwargs):
        super(TrainPipe, self).__init__(**kwargs)
        self.data_dir = data_dir
        self.crop = crop

    def define_graph(self):
        jpegs, labels = fn.readers.file(file_root=self.data_dir, name="Reader")
        images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
        images = fn.resize(images, resize_x=self.crop.width, resize_y=self.crop.height)
        return fn.cast(images, dtype=self.dtype), labels


crop = Crop.square(32) if Crop().area > 4096 else Crop()
labels = label_cycle(3)
warmup = [next(labels) for _ in range(4)]
batches = [len(b) for b in BatchIterator(["a.jpg", "b.jpg", "c.jpg"], 2)]
pipe = TrainPipe("samples/images", crop, batch_size=env_int("DALIC_SAMPLE_BATCH", 2),
                 num_threads=1, device_id=None, seed=5)
