# Real DALI's side of bench/resnet_cpu.sh: the same ResNet-50-style CPU pipeline as
# bench/resnet_cpu.c (readers.file over the same file list, shuffled; decoders.image_random_crop;
# resize 224x224; crop_mirror_normalize FLOAT CHW with mirror from coin_flip), batch 64,
# 2 threads, no GPU. Warms up 3 iterations, then prints "IMAGES_PER_S CPU_MS_PER_IMAGE".
#   python resnet_cpu_dali.py FILE_LIST ITERATIONS
import sys
import time

from nvidia.dali import pipeline_def
import nvidia.dali.fn as fn
import nvidia.dali.types as types

BATCH = 64


@pipeline_def
def resnet_cpu_dali(file_list):
    jpegs, labels = fn.readers.file(file_list=file_list, random_shuffle=True)
    images = fn.decoders.image_random_crop(jpegs, output_type=types.RGB)
    images = fn.resize(images, resize_x=224, resize_y=224)
    images = fn.crop_mirror_normalize(
        images,
        dtype=types.FLOAT,
        output_layout="CHW",
        mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
        std=[0.229 * 255, 0.224 * 255, 0.225 * 255],
        mirror=fn.random.coin_flip(),
    )
    return images, labels


pipe = resnet_cpu_dali(sys.argv[1], batch_size=BATCH, num_threads=2, device_id=None, seed=1,
                       exec_pipelined=False, exec_async=False, prefetch_queue_depth=1)
pipe.build()
for _ in range(3):
    pipe.run()
n = int(sys.argv[2])
c0, t0 = time.process_time(), time.time()
for _ in range(n):
    pipe.run()
t, c = time.time() - t0, time.process_time() - c0
print("%.2f %.3f" % (n * BATCH / t, c * 1e3 / (n * BATCH)))
