# oracle: error=`normalized` argument is incompatible with providing a separate value
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return fn.erase(images, anchor=[0.1, 0.1], shape=[0.5, 0.5], normalized=True,
                    normalized_shape=True)


pipe = oracle_pipe()
