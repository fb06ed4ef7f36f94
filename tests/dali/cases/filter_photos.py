# filter (and its legacy name experimental.filter): photos correlated with OpenCV-style
# kernels — auto_aug's sharpness kernel, an asymmetric 3x5 kernel with an anchor, every
# border mode, "valid" mode, float output, a constant border with a fill value, CHW planes
# and int16 samples (exact: float sums in OpenCV's order, cvRound).
# oracle: iterations=2
import numpy as np
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images", random_shuffle=True)
    rgb = fn.crop(fn.decoders.image(jpegs, output_type=types.RGB), crop=(30, 41))
    smooth = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], dtype=np.float32) / 13
    ident = np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]], dtype=np.float32)
    m = np.float32(0.63)
    sharp = types.Constant(-m * smooth + (1 + m) * ident)
    odd = types.Constant(np.array([[0.5, -1.25, 0, 2, 0.125],
                                   [0.3, 0.7, -0.9, 0.1, 0.05],
                                   [-0.2, 0, 0.33, 1.5, -0.6]], dtype=np.float32))
    outs = [fn.experimental.filter(rgb, sharp), fn.filter(rgb, odd, anchor=[2, 1])]
    for border in ["reflect_1001", "wrap", "clamp", "constant"]:
        outs.append(fn.filter(rgb, odd, border=border))
    outs.append(fn.filter(rgb, odd, mode="valid"))
    outs.append(fn.filter(rgb, odd, dtype=types.FLOAT))
    fill = types.Constant(np.uint8(77))
    outs.append(fn.filter(rgb, odd, fill, border="constant"))
    chw = fn.transpose(rgb, perm=[2, 0, 1], output_layout="CHW")
    outs.append(fn.filter(chw, sharp))
    i16 = fn.cast(rgb, dtype=types.INT16) * types.Constant(np.int16(-90))
    outs.append(fn.filter(i16, odd, border="clamp"))
    f32 = fn.cast(rgb, dtype=types.FLOAT) * 0.37
    outs.append(fn.filter(f32, odd, border="wrap"))
    u16 = fn.cast(rgb, dtype=types.UINT16) * types.Constant(np.uint16(201))
    outs.append(fn.filter(u16, sharp))
    return tuple(outs)


pipe = oracle_pipe()
