# Pattern: constants prepared with numpy at module level and inside the definition — angle
# tables from np.linspace, np.pi, np.float32 scalars, np.arange(...).reshape, .tolist(),
# .astype — handed to operators as arguments and as constant inputs (types.Constant).
#     dalic run samples/scripts/real/numpy_constants.py -n 2
# oracle: iterations=2
import numpy as np
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

ANGLES = np.linspace(0, 90, 4).tolist()                 # [0.0, 30.0, 60.0, 90.0]
SCALE = np.float32(1.0 / 255)
WEIGHTS = (np.arange(6).reshape(2, 3) * 2 + 1).astype(np.float32)
OFFSET = float(np.pi / 4)


@pipeline_def(batch_size=3, num_threads=1, device_id=None)
def numpy_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", random_shuffle=False)
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.GRAY)
    images = fn.crop(images, crop=(8, 8))
    scaled = fn.cast(images, dtype=types.FLOAT) * SCALE
    rotated = fn.rotate(images, angle=ANGLES[3], interp_type=types.INTERP_NN)
    weights = types.Constant(WEIGHTS, device="cpu")
    mean = np.array([0.5, 0.25, 0.125], dtype=np.float32)
    weighted = weights * fn.cast(labels, dtype=types.FLOAT) + types.Constant(mean)
    phase = fn.cast(labels, dtype=types.FLOAT) * OFFSET
    return scaled, rotated, weighted, phase


pipe = numpy_pipe()
