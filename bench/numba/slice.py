import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def
from nvidia.dali.plugin.numba.fn import numba_function
def run(out0, in0):
    out0[:] = 255 - in0
@pipeline_def(batch_size=4, num_threads=1, device_id=None, seed=1)
def p():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.resize(fn.decoders.image(jpegs), resize_x=64, resize_y=64)
    return numba_function(images, run_fn=run, out_types=[types.UINT8], in_types=[types.UINT8], outs_ndim=[3], ins_ndim=[3])
pipe = p()
