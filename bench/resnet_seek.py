# The ResNet-50-style CPU pipeline of bench/resnet_cpu.c as a script, for
# bench/checkpoint_seek.sh (the same file runs under DALI): readers.file -> decoders.
# image_random_crop -> resize 224x224 -> crop_mirror_normalize (FLOAT, CHW, mirror from
# coin_flip), batch 64, 2 threads.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=64, num_threads=2, device_id=None, seed=1,
              exec_pipelined=False, exec_async=False, prefetch_queue_depth=1)
def resnet_seek(file_list=""):
    jpegs, labels = fn.readers.file(file_list=file_list, random_shuffle=True, name="Reader")
    images = fn.decoders.image_random_crop(jpegs, device="cpu")
    images = fn.resize(images, resize_x=224, resize_y=224)
    mirror = fn.random.coin_flip()
    out = fn.crop_mirror_normalize(images, dtype=types.FLOAT, output_layout="CHW",
                                   mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                                   std=[0.229 * 255, 0.224 * 255, 0.225 * 255],
                                   mirror=mirror)
    return out, labels
