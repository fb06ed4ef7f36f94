# slice past the photos' edges with DALI 2.4's border modes: edge/clamp, reflect (1001),
# reflect_101 and wrap, in mixed letter case; windows larger than the image repeat it.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    small = fn.crop(images, crop=(15, 20), crop_pos_x=0.3, crop_pos_y=0.6)
    return (fn.slice(images, start=[-30, 280], shape=[80, 60], axis_names="WH",
                     out_of_bounds_policy="edge"),
            fn.slice(small, start=[-45, -33], shape=[110, 70], axis_names="WH",
                     out_of_bounds_policy="reflect"),
            fn.slice(small, start=[-45, -33], shape=[110, 70], axis_names="WH",
                     out_of_bounds_policy="Reflect_101"),
            fn.slice(small, start=[-45, -33, 1], shape=[110, 70, 5], axis_names="WHC",
                     out_of_bounds_policy="WRAP"),
            fn.slice(small, start=[5, -7], shape=[9, 40], axis_names="WH",
                     out_of_bounds_policy="clamp", dtype=types.FLOAT))


pipe = oracle_pipe()
