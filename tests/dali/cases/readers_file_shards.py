# oracle: iterations=6
# readers.file, second of three shards read through a shuffle buffer, the last batch padded;
# the reader moves on to the next shard each epoch.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=77)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", shard_id=1, num_shards=3,
                                    random_shuffle=True, initial_fill=3,
                                    pad_last_batch=True)
    return fn.peek_image_shape(jpegs), labels


pipe = oracle_pipe()
