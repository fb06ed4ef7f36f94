# Pattern: a data-module class — @pipeline_def on a method, settings splatted as **kwargs into
# pipeline_def and into an operator, the pipeline made by a closure factory, and the ops
# API's Compose chaining a decoder and a resize into one callable.
import nvidia.dali.fn as fn
import nvidia.dali.ops as ops
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

PIPE_KW = dict(batch_size=2, num_threads=1, device_id=None, seed=11)
RESIZE_KW = {"resize_x": 40, "resize_y": 30, "interp_type": types.INTERP_LINEAR}


class DataModule:
    def __init__(self, root):
        self.root = root
        self.decode_resize = ops.Compose([ops.decoders.Image(device="cpu"),
                                          ops.Resize(**RESIZE_KW)])

    @pipeline_def(**PIPE_KW)
    def train_pipeline(self, flip):
        jpegs, labels = fn.readers.file(file_root=self.root, name="Reader")
        images = self.decode_resize(jpegs)
        return fn.flip(images, horizontal=flip), labels


def make_factory(root):
    def build(flip):
        return DataModule(root).train_pipeline(flip)
    return build


pipe = make_factory("samples/images")(flip=1)
