# The legacy style: a Pipeline subclass creates ops API operator objects in __init__ and
# connects them in define_graph, which runs when the pipeline is built.
from nvidia.dali.pipeline import Pipeline
import nvidia.dali.ops as ops
import nvidia.dali.types as types

image_dir = "samples/images"


class SimplePipeline(Pipeline):
    def __init__(self, batch_size, num_threads, device_id):
        super(SimplePipeline, self).__init__(batch_size, num_threads, device_id, seed=12)
        self.input = ops.readers.File(file_root=image_dir)
        self.decode = ops.decoders.Image(device="cpu", output_type=types.RGB)
        self.resize = ops.Resize(resize_shorter=96)

    def define_graph(self):
        jpegs, labels = self.input()
        images = self.decode(jpegs)
        images = self.resize(images)
        return (images, labels)


pipe = SimplePipeline(batch_size=3, num_threads=1, device_id=None)
pipe.build()
