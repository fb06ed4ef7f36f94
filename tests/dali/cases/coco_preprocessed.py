# readers.coco's preprocessed annotation files both ways: DALI and dalic each save them
# (save_preprocessed_annotations, pixelwise masks, image ids, ltrb, skip_empty) and the files
# must be byte for byte the same; then each side reads both directories
# (preprocessed_annotations) with pixelwise masks and image ids.
# oracle: iterations=3
# oracle: checks=outputs,serialize,names
import os
from nvidia.dali import pipeline_def, fn

D = "/tmp/dalic_oracle_coco_masks"
PRE = "/tmp/dalic_oracle_coco_pre"
SAVE = dict(pixelwise_masks=True, image_ids=True, ltrb=True, skip_empty=True,
            save_preprocessed_annotations=True)

if __name__ == "__oracle__":
    import filecmp
    import shutil
    import subprocess
    import sys
    sys.path.insert(0, "tests/dali")
    import oracle_data
    oracle_data.make_coco_masks()
    shutil.rmtree(PRE, ignore_errors=True)
    for side in ("dali", "dalic"):
        os.makedirs(PRE + "/" + side)

    @pipeline_def(batch_size=2, num_threads=1, device_id=None)
    def save_pipe():
        return tuple(fn.readers.coco(file_root=D + "/images", annotations_file=D + "/instances.json",
                                     save_preprocessed_annotations_dir=PRE + "/dali", **SAVE))

    save_pipe().build()
    script = PRE + "/save.py"
    with open(script, "w") as f:
        f.write("from nvidia.dali import pipeline_def, fn\n"
                "@pipeline_def(batch_size=2, num_threads=1, device_id=None)\n"
                "def p():\n    return tuple(fn.readers.coco(file_root=%r, annotations_file=%r, "
                "save_preprocessed_annotations_dir=%r, **%r))\npipe = p()\n"
                % (D + "/images", D + "/instances.json", PRE + "/dalic", SAVE))
    subprocess.run([os.environ.get("DALIC", "build/release/dalic"), "run", script, "-n", "1"],
                   check=True, stdout=subprocess.DEVNULL)
    names = sorted(os.listdir(PRE + "/dali"))
    same, diff, missing = filecmp.cmpfiles(PRE + "/dali", PRE + "/dalic", names, shallow=False)
    extra = set(os.listdir(PRE + "/dalic")) - set(names) - {"save.py"}
    if diff or missing or extra or len(names) < 15:
        raise AssertionError("preprocessed files differ: %s, missing %s, extra %s (of %s)"
                             % (diff, missing, sorted(extra), names))


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    outs = []
    for side in ("dali", "dalic"):
        outs += fn.readers.coco(file_root=D + "/images", preprocessed_annotations=PRE + "/" + side,
                                pixelwise_masks=True, image_ids=True, random_shuffle=True,
                                name="Reader_" + side)
    return tuple(outs)


pipe = oracle_pipe()
