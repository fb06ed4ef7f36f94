# Checkpoints both ways over readers.webdataset with random_shuffle, a reader
# prefetch_queue_depth of 3 (picks made ahead must not show in the checkpoint) and coin_flip.
# oracle: checkpoint=3
# oracle: iterations=4
from nvidia.dali import pipeline_def, fn, types

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_webdataset()

D = "/tmp/dalic_oracle_wds"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=2)
def oracle_pipe():
    cls, txt = fn.readers.webdataset(
        paths=[D + "/shard-0.tar", D + "/shard-1.tar", D + "/shard-2.tar"],
        ext=["cls", "txt"], case_sensitive_extensions=False, missing_component_behavior="Skip",
        random_shuffle=True, initial_fill=5, prefetch_queue_depth=3)
    return cls, txt, fn.random.coin_flip(probability=0.3)


pipe = oracle_pipe()
