# Pattern: the legacy Pipeline subclass of older training code (DALI's ResNet-50 example
# style): operators created in __init__ from its arguments with the ops API, wired in
# define_graph. The module never instantiates it; the arguments come from --arg:
#     dalic run samples/scripts/real/subclass_args.py --pipeline HybridValPipe \
#         --arg batch_size=3 --arg num_threads=1 --arg device_id=None \
#         --arg data_dir='"samples/images"' --arg crop=64 --arg size=80 -n 2
# oracle: pipeline=HybridValPipe
# oracle: args=batch_size=3, num_threads=1, device_id=None, data_dir="samples/images", crop=64, size=80
# oracle: iterations=2
# oracle: atol=0.02
import nvidia.dali.ops as ops
import nvidia.dali.types as types
from nvidia.dali.pipeline import Pipeline


class HybridValPipe(Pipeline):
    def __init__(self, batch_size, num_threads, device_id, data_dir, crop, size,
                 shard_id=0, num_shards=1):
        super(HybridValPipe, self).__init__(batch_size, num_threads, device_id, seed=12)
        self.input = ops.readers.File(file_root=data_dir, shard_id=shard_id,
                                      num_shards=num_shards, random_shuffle=False,
                                      pad_last_batch=True)
        self.decode = ops.decoders.Image(device="cpu", output_type=types.RGB)
        self.res = ops.Resize(device="cpu", resize_shorter=size,
                              interp_type=types.INTERP_TRIANGULAR)
        self.cmnp = ops.CropMirrorNormalize(device="cpu", dtype=types.FLOAT,
                                            output_layout=types.NCHW, crop=(crop, crop),
                                            mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                                            std=[0.229 * 255, 0.224 * 255, 0.225 * 255])

    def define_graph(self):
        self.jpegs, self.labels = self.input(name="Reader")
        images = self.decode(self.jpegs)
        images = self.res(images)
        output = self.cmnp(images)
        return [output, self.labels]
