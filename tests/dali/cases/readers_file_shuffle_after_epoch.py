# oracle: iterations=6
# oracle: checks=outputs
# readers.file reshuffling the whole list every epoch (shuffle_after_epoch); 12 files in
# batches of 4, so six iterations span two epochs. DALI 2.4 reshuffles with
# mt19937_64(seed + (epoch << 32)) (kernels/common/reader_rand).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=77)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", shuffle_after_epoch=True)
    return fn.peek_image_shape(jpegs), labels


pipe = oracle_pipe()
