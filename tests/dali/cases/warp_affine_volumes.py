# warp_affine: 3-D volumes (DHWC, 3x4 matrices, trilinear and NN), sequences (FHWC: every
# frame with its sample's matrix), and per-sample output sizes from an argument input.
# oracle: iterations=2
from nvidia.dali import pipeline_def, fn, types

T = fn.transforms


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    rgb = fn.crop(fn.decoders.image(jpegs, output_type=types.RGB), crop=[72, 96])
    volume = fn.reshape(rgb, shape=[6, 12, 96, 3], layout="DHWC")
    frames = fn.reshape(rgb, shape=[3, 24, 96, 3], layout="FHWC")
    rot3 = T.rotation(angle=25.0, axis=[1.0, 0.5, 2.0], center=[48.0, 6.0, 3.0])
    # per-sample [H, W] from two pixel values (0..255), as float
    size = fn.cast(fn.reshape(fn.crop(rgb, crop=[1, 1]), shape=[3]), dtype=types.FLOAT)
    hw = fn.coord_transform(fn.reshape(size, shape=[1, 3]), M=[0.1, 0.0, 0.0, 0.0, 0.2, 0.0],
                            T=[4.0, 8.0])
    hw = fn.reshape(hw, shape=[2])
    return (fn.warp_affine(volume, rot3),
            fn.warp_affine(volume, matrix=[1.1, 0.0, 0.2, -1.0, 0.1, 0.9, 0.0, 2.0,
                                           0.0, 0.3, 0.8, 0.5],
                           interp_type=types.INTERP_NN, fill_value=9.0, size=[5.0, 10.0, 40.0]),
            fn.warp_affine(frames, matrix=[0.8, -0.3, 6.0, 0.3, 0.8, -4.0], fill_value=0.0),
            fn.warp_affine(rgb, matrix=[1.0, 0.1, 0.0, -0.1, 1.0, 2.0], size=hw))


pipe = oracle_pipe()
