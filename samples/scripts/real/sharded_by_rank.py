# Pattern: a training module that takes its shard and device from the framework — horovod
# when it is installed, torch.distributed when the process group is up, LOCAL_RANK from the
# launcher otherwise — with a fallback when PyTorch is absent, and the pipeline made by a
# factory that splats **kwargs into pipeline_def.
import os

from nvidia.dali import pipeline_def, fn, types

try:
    import torch
    import torch.distributed as dist
    have_torch = True
except ImportError:  # data loading may run where PyTorch is not installed
    have_torch = False

try:
    import horovod.torch as hvd
    hvd.init()
    local_rank = hvd.local_rank()
except ImportError:
    local_rank = int(os.environ.get("LOCAL_RANK", 0))

if have_torch and dist.is_available() and dist.is_initialized():
    rank, world = dist.get_rank(), dist.get_world_size()
else:
    rank, world = 0, 1

device_id = local_rank if have_torch and torch.cuda.is_available() else None


def make_pipeline(root, train, **kwargs):
    @pipeline_def(batch_size=2, num_threads=2, device_id=device_id, seed=7 + rank, **kwargs)
    def pipe():
        jpegs, labels = fn.readers.file(file_root=root, shard_id=rank, num_shards=world,
                                        random_shuffle=train, name="Reader")
        images = fn.decoders.image(jpegs, output_type=types.RGB)
        return fn.resize(images, resize_shorter=32), labels
    return pipe()


train_pipe = make_pipeline("samples/images", True, prefetch_queue_depth=2)
