# warp_affine: sample photos (RGB uint8) warped by constant matrices (linear and NN, clamped
# and filled borders, inverse_map=False, explicit size), by transforms.* matrices as the second
# input and as the per-sample `matrix` argument, to float output, and on float input.
# oracle: iterations=3
from nvidia.dali import pipeline_def, fn, types

T = fn.transforms


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    images = fn.crop(images, crop=[72, 96])  # small, and exact in both (a resize is not)
    rot = T.rotation(angle=17.5, center=[48.0, 36.0])
    mt = T.combine(T.scale(scale=[1.25, 0.8]), rot, T.translation(offset=[-3.0, 5.5]))
    as_float = fn.cast(images, dtype=types.FLOAT)
    return (fn.warp_affine(images, matrix=[0.9, 0.2, 3.5, -0.15, 1.1, -2.25]),
            fn.warp_affine(images, matrix=[0.9, 0.2, 3.5, -0.15, 1.1, -2.25], fill_value=42.0,
                           interp_type=types.INTERP_NN),
            fn.warp_affine(images, matrix=[1.5, 0.0, -10.0, 0.3, 1.5, -20.0], inverse_map=False,
                           size=[50.4, 70.6], fill_value=7.0),
            fn.warp_affine(images, rot, fill_value=255.0),
            fn.warp_affine(images, matrix=mt, inverse_map=False, dtype=types.FLOAT),
            fn.warp_affine(as_float, mt, fill_value=-1.5, dtype=types.UINT8),
            fn.warp_affine(as_float, matrix=[0.5, 0.0, 0.0, 0.0, 0.5, 0.0],
                           interp_type=types.INTERP_NN))


pipe = oracle_pipe()
