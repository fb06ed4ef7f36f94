# Arithmetic on images and labels: DALI names each expression ___ArithmeticGenericOp_N (the
# Python class is _ArithmeticGenericOp), the scalar operands become constants inside the
# expression, and the resize output that feeds the pipeline's output gets its
# __MakeContiguous_CpuToCpu_<node>; names, outputs and executor_statistics keys must agree.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=3)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    small = fn.resize(images, resize_x=32, resize_y=24, interp_type=types.INTERP_NN)
    f = fn.cast(small, dtype=types.FLOAT)
    return ((f * 0.5 + 10) / 3, small // 3, labels * 2 + 1, -labels, small,
            small - labels, f ** 2 - f, small % 7)


pipe = oracle_pipe()
