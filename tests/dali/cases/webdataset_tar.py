# readers.webdataset reading the tar archives themselves (no index): GNU long names,
# case-insensitive extensions, samples without a component skipped, one output fed by two
# extensions, and shuffle_after_epoch reordering the archives each epoch.
# oracle: iterations=8
# oracle: checks=outputs,serialize,names
from nvidia.dali import pipeline_def, fn

if __name__ == "__oracle__":
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_webdataset()

D = "/tmp/dalic_oracle_wds"


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=2)
def oracle_pipe():
    cls, txt, img = fn.readers.webdataset(
        paths=[D + "/shard-0.tar", D + "/shard-1.tar", D + "/shard-2.tar"],
        ext=["cls", "txt", "JPG;PNG"], case_sensitive_extensions=False,
        missing_component_behavior="Skip", shuffle_after_epoch=True)
    return cls, txt, img, fn.get_property(img, key="source_info")


pipe = oracle_pipe()
