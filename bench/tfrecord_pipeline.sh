#!/bin/sh
# Issue 15's second target: an ImageNet-style pipeline over TFRecord files (readers.tfrecord
# -> decoders.image_random_crop -> resize 224x224 -> crop_mirror_normalize FLOAT CHW; batch
# 32, 2 threads) against the same pipeline over readers.file on the same images, in one run:
# rounds alternate the two, the ratio is tfrecord images/s over file images/s. Target: >=0.95.
# The sample photos repeated REPEAT times, written by tests/dali/oracle_data.py (4 TFRecord
# files with their indexes; one directory of JPEGs, labels from readers.file's class dir).
#   sh bench/tfrecord_pipeline.sh [repeat [iterations]]    (default 20 -> 240 images; 30)
# Needs a Python with numpy (DALIC_DALI_PYTHON, as tests/dali/check.sh).
set -e
cd "$(dirname "$0")/.."
REPEAT=${1:-20}
ITER=${2:-30}
. bench/readers_common.sh
"$PY" - "$D" "$REPEAT" <<'PY'
import os, sys
sys.path.insert(0, "tests/dali")
import oracle_data as od
d, rep = sys.argv[1], int(sys.argv[2])
od.PHOTOS = [p for p in od.PHOTOS if p.endswith(".jpg")] * rep
paths, idx = od.make_tfrecords(d + "/tfrecord", files=4)
os.makedirs(d + "/files/all")
for k, name in enumerate(od.PHOTOS):
    with open("%s/files/all/%05d.jpg" % (d, k), "wb") as f:
        f.write(od.photo(name))
tf = ", ".join('"%s"' % p for p in paths)
ti = ", ".join('"%s"' % p for p in idx)
readers = {
    "file": 'fn.readers.file(file_root="%s/files", random_shuffle=True, initial_fill=64)[0]' % d,
    "tfrecord": ('fn.readers.tfrecord(path=[%s], index_path=[%s], random_shuffle=True, '
                 'initial_fill=64, features={"image/encoded": '
                 'tfrec.FixedLenFeature([], tfrec.string, "")})["image/encoded"]' % (tf, ti)),
}
for name, call in readers.items():
    with open("%s/%s.py" % (d, name), "w") as f:
        f.write("from nvidia.dali import pipeline_def, fn, types\n"
                "import nvidia.dali.tfrecord as tfrec\n"
                "@pipeline_def(batch_size=32, num_threads=2, device_id=None, seed=1)\n"
                "def p():\n    jpegs = %s\n"
                "    img = fn.decoders.image_random_crop(jpegs, output_type=types.RGB)\n"
                "    img = fn.resize(img, resize_x=224, resize_y=224)\n"
                "    return fn.crop_mirror_normalize(img, dtype=types.FLOAT, output_layout='CHW',\n"
                "        mean=[123.7, 116.3, 103.5], std=[58.4, 57.1, 57.4],\n"
                "        mirror=fn.random.coin_flip())\n"
                "pipe = p()\n" % call)
PY
sum_t=0 sum_f=0
for round in 1 2 3; do
	for name in file tfrecord; do
		sps=$("$DALIC" run "$D/$name.py" -n "$ITER" | sed -n 's/^samples_per_second: //p')
		echo "round $round $name: $sps images/s"
		if [ $name = file ]; then sum_f=$(echo "$sum_f + $sps" | bc -l); else sum_t=$(echo "$sum_t + $sps" | bc -l); fi
	done
done
printf 'tfrecord %.1f images/s, file %.1f images/s, ratio %.3f\n' "$(echo "$sum_t / 3" | bc -l)" \
	"$(echo "$sum_f / 3" | bc -l)" "$(echo "$sum_t / $sum_f" | bc -l)"
