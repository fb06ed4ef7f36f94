#!/bin/sh
# The readers against a plain sequential read of the same files, in the same run (issue 15's
# target: each reader delivers raw records at >= 90% of it). The sample photos, repeated
# REPEAT times, are written in each format by tests/dali/oracle_data.py's writers (page cache
# warm: every data set is read once first); each reader runs batch 16 on 2 threads over four
# epochs, outputs only its raw records (no decoding), and its MB/s is the data set's bytes
# per sample times samples/s. The reference is `cat FILES > /dev/null` on the same files.
# Three rounds alternate reader and cat; the ratio is reader MB/s / cat MB/s.
#   sh bench/readers.sh [repeat]      (default 20: 240 samples per data set)
# READERS="caffe tfrecord" runs only those; DALIC=path measures another dalic binary (a
# before/after pair in one run).
# Needs a Python with numpy (DALIC_DALI_PYTHON, as tests/dali/check.sh; default
# build/dali-venv/bin/python) and lmdb-utils' mdb_load.
set -e
cd "$(dirname "$0")/.."
REPEAT=${1:-20}
. bench/readers_common.sh
"$PY" - "$D" "$REPEAT" <<'PY'
import os, sys
sys.path.insert(0, "tests/dali")
import numpy as np
import oracle_data as od
d, rep = sys.argv[1], int(sys.argv[2])
od.PHOTOS = od.PHOTOS * rep
n = len(od.PHOTOS)
paths, idx = od.make_tfrecords(d + "/tfrecord", files=4)
od.make_webdataset(d + "/wds", archives=4)
od.make_recordio(d + "/rec", files=4)
od.make_caffe(d + "/caffe")
od.make_caffe2(d + "/caffe2")
os.makedirs(d + "/npy")
os.makedirs(d + "/files/all")
for k, name in enumerate(od.PHOTOS):
    data = od.photo(name)
    np.save("%s/npy/%05d.npy" % (d, k), np.frombuffer(data, dtype=np.uint8))
    with open("%s/files/all/%05d.jpg" % (d, k), "wb") as f:
        f.write(data)
tf = ", ".join('"%s"' % p for p in paths)
ti = ", ".join('"%s"' % p for p in idx)
wds = ", ".join('"%s/wds/shard-%d.tar"' % (d, a) for a in range(4))
rec = ", ".join('"%s/rec/part-%d.rec"' % (d, a) for a in range(4))
readers = {
    "file": ('fn.readers.file(file_root="%s/files")[0]' % d, d + "/files/all"),
    "numpy": ('fn.readers.numpy(file_root="%s/npy")' % d, d + "/npy"),
    "tfrecord": ('fn.readers.tfrecord(path=[%s], index_path=[%s], features={"image/encoded": '
                 'tfrec.FixedLenFeature([], tfrec.string, "")})["image/encoded"]' % (tf, ti),
                 d + "/tfrecord"),
    "webdataset": ('fn.readers.webdataset(paths=[%s], ext=["jpg;png"])' % wds, d + "/wds"),
    "mxnet": ('fn.readers.mxnet(path=[%s], index_path=["%s/rec/all.idx"])[0]' % (rec, d),
              d + "/rec"),
    "caffe": ('fn.readers.caffe(path="%s/caffe/photos.lmdb")[0]' % d, d + "/caffe/photos.lmdb"),
    "caffe2": ('fn.readers.caffe2(path="%s/caffe2/photos.lmdb")[0]' % d,
               d + "/caffe2/photos.lmdb"),
}
with open(d + "/list", "w") as lst:
    for name, (call, data_dir) in readers.items():
        with open("%s/%s.py" % (d, name), "w") as f:
            f.write("from nvidia.dali import pipeline_def, fn\n"
                    "import nvidia.dali.tfrecord as tfrec\n"
                    "@pipeline_def(batch_size=16, num_threads=2, device_id=None, seed=1)\n"
                    "def p():\n    return %s\npipe = p()\n" % call)
        files = sorted(os.path.join(data_dir, x) for x in os.listdir(data_dir)
                       if not x.endswith((".idx", ".txt", "lock.mdb")))
        size = sum(os.path.getsize(x) for x in files)
        lst.write("%s %d %d %s\n" % (name, n, size, " ".join(files)))
PY
ITER=$((REPEAT * 12 * 4 / 16))
while read -r name n size files; do
	case " ${READERS:-$name} " in *" $name "*) ;; *) continue ;; esac
	cat $files >/dev/null
	sum_r=0 sum_c=0
	for round in 1 2 3; do
		sps=$("$DALIC" run "$D/$name.py" -n "$ITER" | sed -n 's/^samples_per_second: //p')
		t0=$(date +%s.%N)
		for k in 1 2 3 4; do cat $files >/dev/null; done
		t1=$(date +%s.%N)
		r=$(echo "$sps * $size / $n / 1000000" | bc -l)
		c=$(echo "4 * $size / ($t1 - $t0) / 1000000" | bc -l)
		sum_r=$(echo "$sum_r + $r" | bc -l) sum_c=$(echo "$sum_c + $c" | bc -l)
	done
	printf '%-10s %4d samples %6.1f MB: reader %7.1f MB/s, cat %7.1f MB/s, ratio %.2f\n' \
		"$name" "$n" "$(echo "$size / 1000000" | bc -l)" "$(echo "$sum_r / 3" | bc -l)" \
		"$(echo "$sum_c / 3" | bc -l)" "$(echo "$sum_r / $sum_c" | bc -l)"
done <"$D/list"
