# oracle: error=Input layout must describe a sequence
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    return fn.element_extract(fn.decoders.image(jpegs), element_map=[0])


pipe = oracle_pipe()
