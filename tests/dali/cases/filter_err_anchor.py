# oracle: error=Anchor must lie within the filter
# filter: an anchor outside the filter is refused (per sample, when the operator runs).
import numpy as np
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    rgb = fn.decoders.image(jpegs, output_type=types.RGB)
    k = types.Constant(np.ones((3, 3), dtype=np.float32) / 9)
    return fn.filter(rgb, k, anchor=[1, 3])


pipe = oracle_pipe()
