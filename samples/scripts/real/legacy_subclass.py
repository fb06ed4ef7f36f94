# oracle: atol=1
# (random_resized_crop resamples in float: DALI and dalic may differ by 1 LSB)
# Pattern: a legacy Pipeline subclass with ops.* classes under their pre-1.0 names, built by
# the module, next to helper classes that use `object`, `yield` and `@property` (an
# external_source iterator the pipeline does not use) and a dataclass of settings.
from dataclasses import dataclass, field
import nvidia.dali.ops as ops
import nvidia.dali.types as types
from nvidia.dali.pipeline import Pipeline


@dataclass
class Settings:
    root: str = "samples/images"
    size: int = 96
    mean: list = field(default_factory=lambda: [0.485 * 255, 0.456 * 255, 0.406 * 255])


class ExternalInputIterator(object):
    def __init__(self, batch_size, files):
        self.batch_size = batch_size
        self.files = files

    @property
    def size(self):
        return len(self.files)

    def __iter__(self):
        self.i = 0
        return self

    def __next__(self):
        if self.i >= self.size:
            raise StopIteration
        batch = self.files[self.i:self.i + self.batch_size]
        self.i += self.batch_size
        return batch

    def batches(self):
        for b in self:
            yield b


class HybridTrainPipe(Pipeline):
    def __init__(self, batch_size, num_threads, device_id, settings):
        super(HybridTrainPipe, self).__init__(batch_size, num_threads, device_id, seed=12)
        self.input = ops.FileReader(file_root=settings.root, random_shuffle=True)
        self.decode = ops.ImageDecoder(device="cpu", output_type=types.RGB)
        self.rrc = ops.RandomResizedCrop(size=settings.size)
        self.cmnp = ops.CropMirrorNormalize(output_layout="CHW", mean=settings.mean)
        self.coin = ops.CoinFlip(probability=0.5)

    def define_graph(self):
        jpegs, labels = self.input(name="Reader")
        images = self.rrc(self.decode(jpegs))
        return self.cmnp(images, mirror=self.coin()), labels


pipe = HybridTrainPipe(batch_size=4, num_threads=2, device_id=None, settings=Settings())
