# Pattern: the debug-mode example of DALI's Pipeline documentation, with `import nvidia.dali`
# alone and the fully qualified decorator. The print builds a numpy array from a sample of
# the batch (`images.get()[0]`) and runs every iteration, as in DALI's debug mode.
#     dalic run samples/scripts/real/debug_shapes.py -n 4
# oracle: skip=DALI cannot serialize a debug-mode pipeline (and its debug mode needs a CUDA driver)
# tests/integration/test_real_modules.c checks the printed shapes and labels instead.
import numpy as np
import nvidia.dali
import nvidia.dali.fn as fn


@nvidia.dali.pipeline.experimental.pipeline_def(batch_size=3, num_threads=1, device_id=None,
                                                 debug=True)
def debug_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", name="Reader")
    images = fn.decoders.image(jpegs, device="cpu")
    print(np.array(images.get()[0]).shape)
    print([t.shape() for t in images.get()])
    print("labels:", np.array(labels.get().as_array()).flatten().tolist())
    return images, labels


pipe = debug_pipe()
