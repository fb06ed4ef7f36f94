# transforms.* through the legacy ops API in a Pipeline subclass.
from nvidia.dali import ops
from nvidia.dali.pipeline import Pipeline


class TransformsPipeline(Pipeline):
    def __init__(self):
        super().__init__(batch_size=2, num_threads=1, device_id=None, seed=5)
        self.tr = ops.transforms.Translation(offset=[1.0, 2.0])
        self.rot = ops.transforms.Rotation(angle=60.0, center=[3.0, 4.0])
        self.scale = ops.transforms.Scale(scale=[2.0, 0.5], reverse_order=True)
        self.shear = ops.transforms.Shear(angles=[10.0, 20.0])
        self.crop = ops.transforms.Crop(to_start=[-1.0], to_end=[1.0], from_end=[2.0, 4.0])
        self.comb = ops.transforms.Combine(reverse_order=True)

    def define_graph(self):
        t = self.tr()
        r = self.rot(t)
        s = self.scale(r)
        return self.comb(t, r, s, self.shear(), self.crop())


pipe = TransformsPipeline()
