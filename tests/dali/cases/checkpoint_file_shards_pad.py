# Checkpoints both ways over readers.file without shuffle, shard 1 of 3 moving on to the next
# shard each epoch, pad_last_batch, and a reader prefetch_queue_depth of 2; the checkpoint after
# 7 batches of 3 is in the reader's fifth epoch.
# oracle: checkpoint=7
# oracle: iterations=4
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=11)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images", num_shards=3, shard_id=1,
                                    pad_last_batch=True, prefetch_queue_depth=2)
    return labels, fn.get_property(jpegs, key="source_info"), fn.random.uniform(range=[0, 5])


pipe = oracle_pipe()
