# resize_crop_mirror through the legacy ops API, with both of DALI's class names
# (ops.ResizeCropMirror and the deprecated ops.FastResizeCropMirror, which serializes under its
# own schema name), in a Pipeline subclass.
# oracle: atol=1
from nvidia.dali import ops, types
from nvidia.dali.pipeline import Pipeline


class RcmPipeline(Pipeline):
    def __init__(self):
        super().__init__(batch_size=4, num_threads=2, device_id=None, seed=5)
        self.reader = ops.readers.File(file_root="samples/images")
        self.decode = ops.decoders.Image(output_type=types.RGB)
        self.rcm = ops.ResizeCropMirror(resize_shorter=64, crop=[48, 48], mirror=1)
        self.fast = ops.FastResizeCropMirror(resize_x=80, resize_y=60, crop=[40, 40],
                                             crop_pos_y=0.25)

    def define_graph(self):
        jpegs, labels = self.reader()
        images = self.decode(jpegs)
        return self.rcm(images), self.fast(images)


pipe = RcmPipeline()
