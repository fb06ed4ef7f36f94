# The box and point operators and warp_affine through the legacy ops API (ops.BbFlip,
# ops.BBoxPaste, ops.BoxEncoder, ops.CoordFlip, ops.CoordTransform, ops.WarpAffine) in a
# Pipeline subclass, on the sample photos' pixels.
from nvidia.dali import ops, types
from nvidia.dali.pipeline import Pipeline

JPEGS = ["cat/chelsea.jpg", "coffee/coffee_422.jpg", "cat/chelsea_411.jpg", "space/rocket.jpg"]


class BoxPipeline(Pipeline):
    def __init__(self):
        super().__init__(batch_size=4, num_threads=2, device_id=None, seed=5)
        self.reader = ops.readers.File(file_root="samples/images", files=JPEGS)
        self.decode = ops.decoders.Image(output_type=types.GRAY)
        self.crop = ops.Crop(crop=[1, 12])
        self.points = ops.Reshape(shape=[3, 4])
        self.scale = ops.CoordTransform(M=[1.0 / 255.0])
        self.flip = ops.BbFlip(ltrb=True, vertical=1)
        self.paste = ops.BBoxPaste(ratio=2.5, paste_x=0.25)
        self.encode = ops.BoxEncoder(anchors=[0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0,
                                              0.2, 0.2, 0.8, 0.8], criteria=0.1)
        self.labels = ops.Cast(dtype=types.INT32)
        self.label_shape = ops.Reshape(shape=[3])
        self.pairs = ops.Reshape(shape=[6, 2])
        self.label_crop = ops.Crop(crop=[1, 3])
        self.coord_flip = ops.CoordFlip(flip_y=1, center_y=0.25)
        self.warp = ops.WarpAffine(matrix=[0.8, 0.1, 2.0, -0.2, 0.9, 1.0], fill_value=3.0)

    def define_graph(self):
        jpegs, labels = self.reader()
        gray = self.decode(jpegs)
        boxes = self.scale(self.points(self.crop(gray)))
        flipped = self.flip(boxes)
        pasted = self.paste(flipped)
        lab = self.label_shape(self.labels(self.label_crop(gray)))
        enc_boxes, enc_labels = self.encode(pasted, lab)
        return (flipped, pasted, enc_boxes, enc_labels, self.coord_flip(self.pairs(boxes)),
                self.warp(gray))


pipe = BoxPipeline()
