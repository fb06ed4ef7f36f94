# Pattern: a per-sample callable source (`batch=False`) that DALI calls with a SampleInfo —
# idx_in_epoch picks the file, so the callable needs no state of its own, and raising
# StopIteration past the last file ends the epoch. Repositories write it as a class with
# __call__ (often for `parallel=True`, which spreads the calls over worker processes and
# gives the same batches). The encoded files are read as bytes and decoded by DALI.
#     dalic run samples/scripts/real/sample_callable.py -n 3
# oracle: iterations=3
# oracle: checks=outputs
# oracle: atol=1
import os

import numpy as np
from nvidia.dali import fn, pipeline_def, types

ROOT = os.path.join("samples", "images")


class ExternalInputCallable:
    def __init__(self, root):
        self.files = []
        classes = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
        for label, name in enumerate(classes):
            folder = os.path.join(root, name)
            for f in sorted(os.listdir(folder)):
                if f.endswith((".jpg", ".png")):
                    self.files.append((os.path.join(folder, f), label))

    def __call__(self, sample_info):
        if sample_info.idx_in_epoch >= len(self.files):
            raise StopIteration
        path, label = self.files[sample_info.idx_in_epoch]
        encoded = np.fromfile(path, dtype=np.uint8)
        return encoded, np.int32([label, sample_info.idx_in_batch, sample_info.iteration])


@pipeline_def(batch_size=4, num_threads=2, device_id=None)
def callable_pipe():
    jpegs, info = fn.external_source(source=ExternalInputCallable(ROOT), num_outputs=2,
                                     batch=False, dtype=[types.UINT8, types.INT32])
    images = fn.decoders.image(jpegs, device="cpu", output_type=types.RGB)
    return fn.resize(images, size=[48, 64]), info


pipe = callable_pipe()
