# Pattern: a factory function (TensorFlow2 UNet3P's data_generator_pipeline) that defines
# @pipeline_def functions inside and returns one of them; the caller then calls it with its
# own parameters (`device`) and the Pipeline parameters.
# dalic calls the factory with the --arg values it takes and the returned function with the
# others (and the Pipeline flags).
#     dalic run samples/scripts/real/factory_function.py --arg data_dir='"samples/images"' \
#         --arg device='"cpu"'
# oracle: pipeline=data_generator_pipeline
# oracle: args=data_dir="samples/images", device="cpu"
import nvidia.dali.fn as fn
import nvidia.dali.types as types
from nvidia.dali import pipeline_def

BATCH_SIZE = 3


def data_generator_pipeline(data_dir, multi_gpu=False, size=32):
    @pipeline_def(batch_size=BATCH_SIZE, num_threads=1, device_id=None)
    def single_gpu_pipeline(device):
        device = "mixed" if "gpu" in device.lower() else "cpu"
        jpegs, labels = fn.readers.file(file_root=data_dir, random_shuffle=False)
        images = fn.decoders.image(jpegs, device=device, output_type=types.GRAY)
        images = fn.resize(images, size=(size, size))
        return images, labels

    @pipeline_def(batch_size=BATCH_SIZE, num_threads=1, device_id=None)
    def multi_gpu_pipeline(device, shard_id):
        jpegs, labels = fn.readers.file(file_root=data_dir, shard_id=shard_id, num_shards=2)
        return fn.decoders.image(jpegs, device=device), labels

    if multi_gpu:
        return multi_gpu_pipeline
    else:
        return single_gpu_pipeline
