"""Data sets the reader cases of the oracle suite read, written into /tmp from the sample
photos by small writers of the formats (no file of them is committed). A case calls these under
`if __name__ == "__oracle__":`, so only the DALI side runs them (it runs first); dalic then
reads the same files. Every writer is deterministic, so a case writes the same bytes each run.
"""
import io
import json
import os
import struct
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHOTOS = [
    "cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg", "cat/chelsea_exif6.jpg",
    "cat/chelsea_gray.jpg", "cat/chelsea_progressive.jpg", "coffee/coffee_422.jpg",
    "coffee/coffee_444.jpg", "coffee/coffee_cup.png", "space/astronaut_444_progressive.jpg",
    "space/rocket.jpg", "space/rocket_gray_progressive.jpg",
]


def photo(name):
    with open(os.path.join(ROOT, "samples/images", name), "rb") as f:
        return f.read()


def fresh_dir(path):
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        full = os.path.join(path, name)
        if os.path.isfile(full):
            os.unlink(full)
    return path


# ---- TFRecord ----------------------------------------------------------------------------

def _crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _masked_crc(data):
    c = _crc32c(data)
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n):
    n &= (1 << 64) - 1
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def _ld(field, payload):
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def example(features):
    """tf.train.Example bytes; features: name -> ("bytes"|"float"|"int64", [values])."""
    entries = b""
    for name, (kind, values) in features.items():
        if kind == "bytes":
            lst = _ld(1, b"".join(_ld(1, v) for v in values))
        elif kind == "float":
            lst = _ld(2, _ld(1, b"".join(struct.pack("<f", v) for v in values)))
        else:
            lst = _ld(3, _ld(1, b"".join(_varint(v) for v in values)))
        entries += _ld(1, _ld(1, name.encode()) + _ld(2, lst))
    return _ld(1, entries)


def write_tfrecord(path, examples, index_path):
    """Records with both CRCs; the index as DALI's tfrecord2idx writes it."""
    offsets = []
    with open(path, "wb") as f:
        for ex in examples:
            n = struct.pack("<Q", len(ex))
            rec = n + struct.pack("<I", _masked_crc(n)) + ex + struct.pack("<I", _masked_crc(ex))
            offsets.append((f.tell(), len(rec)))
            f.write(rec)
    with open(index_path, "w") as f:
        for off, size in offsets:
            f.write("%d %d\n" % (off, size))


def photo_examples():
    """One Example per sample photo: the bytes, a label, a box list, the name."""
    out = []
    for k, name in enumerate(PHOTOS):
        out.append(example({
            "image/encoded": ("bytes", [photo(name)]),
            "image/class/label": ("int64", [k % 3 + 1]),
            "image/object/bbox": ("float", [0.125 * (j + k % 4) for j in range(4 * (k % 3 + 1))]),
            "image/filename": ("bytes", [name.encode()]),
            "image/size": ("int64", [k, -k, 1 << 40]),
        }))
    return out


def make_tfrecords(root="/tmp/dalic_oracle_tfrecord", files=3):
    """The photos' Examples in `files` TFRecord files (4 + 4 + 4), with index files."""
    fresh_dir(root)
    ex = photo_examples()
    per = (len(ex) + files - 1) // files
    paths, idx = [], []
    for f in range(files):
        p, i = "%s/train-%d.tfrecord" % (root, f), "%s/train-%d.idx" % (root, f)
        write_tfrecord(p, ex[f * per:(f + 1) * per], i)
        paths.append(p)
        idx.append(i)
    return paths, idx


# ---- webdataset ---------------------------------------------------------------------------

def _tar_add(tf, name, data, offsets):
    ti = tarfile.TarInfo(name)
    ti.size = len(data)
    ti.mtime = 1700000000
    tf.addfile(ti, io.BytesIO(data))
    offsets.append((name, ti.offset_data, len(data)))


def make_webdataset(root="/tmp/dalic_oracle_wds", archives=3):
    """The photos as webdataset samples in `archives` tars: <k>.jpg or .png (the photo),
    .cls (the label as text), .f32 (four float32), .TXT (the name, upper-case extension) on
    some; every fourth sample has no .cls; one sample lives under a long (GNU) name. Index
    files in DALI's v1.2 form next to them, and a v1.1 one for the first archive."""
    fresh_dir(root)
    per = (len(PHOTOS) + archives - 1) // archives
    paths, idx = [], []
    for a in range(archives):
        path = "%s/shard-%d.tar" % (root, a)
        samples = []
        with tarfile.open(path, "w", format=tarfile.GNU_FORMAT) as tf:
            for k in range(a * per, min(len(PHOTOS), (a + 1) * per)):
                name = PHOTOS[k]
                base = "s%03d" % k if k != 5 else "deep/" + "d" * 110 + "/s%03d" % k
                comps = []
                ext = "png" if name.endswith(".png") else "jpg"
                _tar_add(tf, base + "." + ext, photo(name), comps)
                if k % 4 != 3:
                    _tar_add(tf, base + ".cls", b"%d" % (k % 3), comps)
                _tar_add(tf, base + ".f32", struct.pack("<4f", k, k + 0.5, -k, 1.0 / (k + 1)),
                         comps)
                if k % 2:
                    _tar_add(tf, base + ".TXT", name.encode(), comps)
                samples.append(comps)
        with open(path[:-4] + ".idx", "w") as f:
            f.write("v1.2 %d\n" % len(samples))
            for comps in samples:
                f.write(" ".join("%s %d %d %s" % (n.split(".", 1)[1] if "/" not in n else
                                                  n.rsplit("/", 1)[1].split(".", 1)[1],
                                                  off, size, n)
                                 for n, off, size in comps) + "\n")
        if a == 0:
            with open(path[:-4] + ".v11.idx", "w") as f:
                f.write("v1.1 %d\n" % len(samples))
                for comps in samples:
                    f.write(" ".join("%s %d %d" % (n.rsplit("/", 1)[-1].split(".", 1)[1],
                                                   off, size)
                                     for n, off, size in comps) + "\n")
        paths.append(path)
        idx.append(path[:-4] + ".idx")
    return paths, idx


# ---- NumPy ---------------------------------------------------------------------------------

def make_numpy(root="/tmp/dalic_oracle_npy"):
    """The photos' bytes as int16 arrays of [h, w, 3] (h = 5 + k % 4, w = 7 + k % 3), every
    third one saved in Fortran order; ten in root, two in root/extra, a uint8 one in
    root/odd (u8.npy), a 2-D one (flat.npy.2d) and a list file of five of them."""
    import numpy as np
    fresh_dir(root)
    for sub in ("extra", "odd"):
        fresh_dir(os.path.join(root, sub))
    names = []
    for k, name in enumerate(PHOTOS):
        h, w = 5 + k % 4, 7 + k % 3
        raw = np.frombuffer(photo(name)[600:600 + 2 * h * w * 3], dtype="<i2")
        a = raw.reshape(h, w, 3)
        if k % 3 == 2:
            a = np.asfortranarray(a)
        rel = ("extra/" if k >= 10 else "") + "a%02d.npy" % k
        np.save(os.path.join(root, rel), a)
        names.append(rel)
    np.save(os.path.join(root, "odd/u8.npy"), np.arange(24, dtype=np.uint8).reshape(2, 3, 4))
    with open(os.path.join(root, "flat.npy.2d"), "wb") as f:
        np.save(f, np.arange(6, dtype=np.int16).reshape(2, 3))
    with open(os.path.join(root, "list.txt"), "w") as f:
        f.write("\n".join(names[k] for k in (3, 0, 11, 5, 8)) + "\n")
    return names


# ---- COCO ----------------------------------------------------------------------------------

def make_coco(root="/tmp/dalic_oracle_coco"):
    """The photos under images/ with instances.json: ids not in file order, two categories
    listed out of order plus an annotation of an unknown one, crowd and tiny boxes, polygon
    and RLE segmentations, images without annotations."""
    fresh_dir(root)
    img_dir = fresh_dir(os.path.join(root, "images"))
    images, anns = [], []
    for k, name in enumerate(PHOTOS):
        fname = "%02d_%s" % (k, os.path.basename(name))
        with open(os.path.join(img_dir, fname), "wb") as f:
            f.write(photo(name))
        images.append({"id": 100 - 7 * k if k % 2 else 10 + k, "file_name": fname,
                       "width": 320 + 16 * k, "height": 200 + 8 * k})
    aid = 0
    for k, img in enumerate(images):
        for j in range(k % 4):
            aid += 1
            x, y, w, h = 3.25 * j + k, 2.5 * k, 10.0 + j * 0.75, 0.05 if j == 2 else 7.5 + k
            seg = ({"size": [img["height"], img["width"]], "counts": [3, 4, 5]} if j == 1 and k % 3
                   else [[x, y, x + w, y, x + w, y + h], [x, y, x + 1, y + 2, x + 3, y + 1, x, y + 4]][: 1 + j % 2])
            anns.append({"id": aid, "image_id": img["id"], "category_id": [7, 3, 42][(j + k) % 3],
                         "bbox": [x, y, w, h], "iscrowd": 1 if (j + k) % 5 == 0 else 0,
                         "area": w * h, "segmentation": seg})
    doc = {"info": {"description": "dalic oracle"}, "images": images,
           "categories": [{"id": 7, "name": "cat"}, {"id": 3, "name": "dog"}],
           "annotations": anns}
    with open(os.path.join(root, "instances.json"), "w") as f:
        json.dump(doc, f)
    return root


def make_coco_bad(root="/tmp/dalic_oracle_coco"):
    """make_coco, plus bad_bbox.json: an annotation whose bbox has three values."""
    make_coco(root)
    doc = {"images": [{"id": 1, "file_name": "00_chelsea.jpg", "width": 10, "height": 10}],
           "categories": [{"id": 1}],
           "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 2, 3]}]}
    with open(os.path.join(root, "bad_bbox.json"), "w") as f:
        json.dump(doc, f)


def coco_rle_string(cnts):
    """The COCO API's compressed RLE string (rleToString)."""
    out = []
    for i, x in enumerate(cnts):
        if i > 2:
            x -= cnts[i - 2]
        more = True
        while more:
            c = x & 0x1f
            x >>= 5
            more = x != -1 if c & 0x10 else x != 0
            if more:
                c |= 0x20
            out.append(chr(c + 48))
    return "".join(out)


def make_coco_masks(root="/tmp/dalic_oracle_coco_masks"):
    """Small images for pixelwise masks: overlapping polygons of two categories, a
    multi-polygon object, RLE masks as count lists and as compressed strings (with a polygon
    of the same category, which DALI lets win), an unknown category, polygons running off the
    image, ratio-free vertices at half pixels, and an image without annotations."""
    fresh_dir(root)
    img_dir = fresh_dir(os.path.join(root, "images"))
    images, anns = [], []
    for k, name in enumerate(PHOTOS[:7]):
        fname = "%02d_%s" % (k, os.path.basename(name))
        with open(os.path.join(img_dir, fname), "wb") as f:
            f.write(photo(name))
        images.append({"id": 50 - k, "file_name": fname, "width": 24 + 4 * k,
                       "height": 16 + 2 * k})
    images[6]["width"] = images[6]["height"] = 17

    def ann(img, cat, seg, box=(1, 1, 5, 5)):
        anns.append({"id": len(anns) + 1, "image_id": img["id"], "category_id": cat,
                     "bbox": list(box), "iscrowd": 0, "segmentation": seg})

    def block(img, x0, y0, x1, y1):
        """Column-major runs of a rectangle [x0, x1) x [y0, y1)."""
        h, w = img["height"], img["width"]
        flat = [0] * (h * w)
        for x in range(x0, x1):
            for y in range(y0, y1):
                flat[x * h + y] = 1
        runs, cur, n = [], 0, 0
        for v in flat:
            if v != cur:
                runs.append(n)
                cur, n = v, 0
            n += 1
        runs.append(n)
        return runs

    i0, i1, i2, i3, i4, i5, i6 = images
    ann(i0, 7, [[2, 2, 14, 3, 12, 12, 3, 10]])
    ann(i0, 3, [[8, 6, 20, 6, 20, 14, 8, 14]])
    ann(i0, 7, [[15.5, 0.5, 19.5, 0.5, 17.5, 4.5], [1, 13, 4, 13, 4, 15]])
    ann(i1, 3, {"size": [i1["height"], i1["width"]], "counts": block(i1, 3, 2, 9, 12)})
    ann(i1, 7, [[6, 4, 18, 4, 18, 9, 6, 9]])
    ann(i2, 3, {"size": [i2["height"], i2["width"]],
                "counts": coco_rle_string(block(i2, 0, 0, 5, 20))})
    ann(i2, 3, [[20, 3, 30, 3, 25, 15]])
    ann(i2, 42, [[-4, -4, 10, -2, 8, 8]])
    ann(i4, 7, [[30, 10, 50, 12, 40, 40]])
    ann(i4, 3, {"size": [i4["height"], i4["width"]], "counts": coco_rle_string(block(i4, 1, 1, 2, 2))})
    ann(i5, 42, [[5, 5, 15, 5, 10, 15]])
    ann(i5, 3, [[0, 0, 2, 0, 2, 2]])
    # vertices whose 5x lands on .5 after x / 17 * 17 in float: how DALI scales ratio'd
    # vertices back decides these pixels
    ann(i6, 7, [[1.9, 1.9, 9.1, 3.3, 10.3, 9.5, 7.1, 7.7, 3.3, 10.1], [4.1, 9.3, 9.5, 9.1, 7.7, 12.9]])
    doc = {"images": images, "categories": [{"id": 7}, {"id": 3}], "annotations": anns}
    with open(os.path.join(root, "instances.json"), "w") as f:
        json.dump(doc, f)
    return root


def make_sequences(root="/tmp/dalic_oracle_seq"):
    """Streams of frames for readers.sequence: three directories of 7, 3 and 10 JPEG frames
    of one size (colour, 4:1:1, 4:4:0, progressive and gray variants of one photo), frames
    named out of write order, and files the reader leaves out (not images, dot files, a
    frame one level deeper)."""
    fresh_dir(root)
    frames = ["cat/chelsea.jpg", "cat/chelsea_411.jpg", "cat/chelsea_440.jpg",
              "cat/chelsea_progressive.jpg", "cat/chelsea_gray.jpg"]
    for s, n in enumerate((7, 3, 10)):
        d = fresh_dir("%s/stream%d" % (root, s))
        for k in reversed(range(n)):
            with open("%s/f%03d.jpg" % (d, k), "wb") as f:
                f.write(photo(frames[(3 * s + k) % len(frames)]))
        with open(d + "/notes.txt", "w") as f:
            f.write("not a frame")
        with open(d + "/.hidden.jpg", "wb") as f:
            f.write(b"not a jpeg")
    os.makedirs(root + "/stream0/deeper", exist_ok=True)
    with open(root + "/stream0/deeper/x.jpg", "wb") as f:
        f.write(b"not read")
    return root


# ---- MXNet RecordIO ------------------------------------------------------------------------

def recordio_record(payload, cflag=0):
    """One RecordIO part: magic, cflag << 29 | length, the payload padded to 4 bytes."""
    rec = struct.pack("<II", 0xced7230a, cflag << 29 | len(payload)) + payload
    return rec + b"\0" * (-len(payload) % 4)


def recordio_payload(label, image, labels=()):
    """MXNet's IRHeader {flag, label, id, id2}, the labels when flag > 0, the image."""
    return (struct.pack("<IfQQ", len(labels), label, 0, 0)
            + b"".join(struct.pack("<f", x) for x in labels) + image)


def make_recordio(root="/tmp/dalic_oracle_rec", files=2):
    """The photos as records of `files` .rec files (every third with three labels), and one
    index file with offsets counted through the files as if concatenated."""
    fresh_dir(root)
    per = (len(PHOTOS) + files - 1) // files
    paths, lines, base = [], [], 0
    for f in range(files):
        path = "%s/part-%d.rec" % (root, f)
        with open(path, "wb") as out:
            for k in range(f * per, min(len(PHOTOS), (f + 1) * per)):
                labels = (k, 0.5 * k, -1.0) if k % 3 == 0 else ()
                lines.append("%d\t%d" % (k, base + out.tell()))
                out.write(recordio_record(recordio_payload(k % 5 + 0.25, photo(PHOTOS[k]),
                                                           labels)))
            base += out.tell()
        paths.append(path)
    with open(root + "/all.idx", "w") as out:
        out.write("\n".join(reversed(lines)) + "\n")
    return paths


def make_recordio_per_file(root="/tmp/dalic_oracle_rec1", files=4):
    """One photo record per .rec file and their index: DALI gives the last record the file of
    the one before it (its source and its shuffle_after_epoch group)."""
    fresh_dir(root)
    lines, base = [], 0
    for f in range(files):
        rec = recordio_record(recordio_payload(f, photo(PHOTOS[f])))
        with open("%s/r%d.rec" % (root, f), "wb") as out:
            out.write(rec)
        lines.append("%d\t%d" % (f, base))
        base += len(rec)
    with open(root + "/r.idx", "w") as out:
        out.write("\n".join(lines) + "\n")


# ---- LMDB: Caffe Datum and Caffe2 TensorProtos ---------------------------------------------

def _vint(field, v):
    return _varint(field << 3) + _varint(v)


def lmdb_write(path, items):
    """An LMDB database directory of (key, value) pairs, through lmdb-utils' mdb_load."""
    import subprocess
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        os.unlink(os.path.join(path, name))
    dump = "VERSION=3\nformat=bytevalue\ntype=btree\nmapsize=268435456\nHEADER=END\n"
    dump += "".join(" %s\n %s\n" % (k.hex(), v.hex()) for k, v in items) + "DATA=END\n"
    subprocess.run(["mdb_load", path], input=dump.encode(), check=True)


def caffe_datum(data, label=None, raw_hwc=None):
    """caffe.Datum bytes: encoded data (or raw uint8 values of shape raw_hwc), a label."""
    out = b""
    if raw_hwc:
        out += _vint(1, raw_hwc[2]) + _vint(2, raw_hwc[0]) + _vint(3, raw_hwc[1])
    out += _ld(4, data)
    if label is not None:
        out += _vint(5, label)
    if raw_hwc:
        out += _vint(7, 0)
    return out


def make_caffe(root="/tmp/dalic_oracle_caffe"):
    """photos.lmdb: the photos as encoded Datums with labels; raw.lmdb: small raw images."""
    fresh_dir(root)
    lmdb_write(root + "/photos.lmdb",
               [(b"%08d_%s" % (k, os.path.basename(n).encode()), caffe_datum(photo(n), k % 4))
                for k, n in enumerate(PHOTOS)])
    raw = []
    for k in range(5):
        h, w = 2 + k % 2, 3
        raw.append((b"%08d" % k, caffe_datum(bytes((7 * k + j) % 256 for j in range(h * w * 3)),
                                             k, (h, w, 3))))
    lmdb_write(root + "/raw.lmdb", raw)


def c2_proto(data_type, dims=(), floats=None, ints=None, byte_data=None, strings=()):
    """caffe2.TensorProto bytes."""
    out = b"".join(_vint(1, d) for d in dims) + _vint(2, data_type)
    if floats is not None:
        out += _ld(3, b"".join(struct.pack("<f", x) for x in floats))
    if ints is not None:
        out += _ld(4, b"".join(_varint(x) for x in ints))
    if byte_data is not None:
        out += _ld(5, byte_data)
    out += b"".join(_ld(6, s) for s in strings)
    return out


def make_caffe2(root="/tmp/dalic_oracle_caffe2"):
    """photos.lmdb: [image STRING, label INT32, extra FLOAT, bbox INT32x4] per photo;
    sparse.lmdb: [label indices INT32, weights FLOAT] (no image)."""
    fresh_dir(root)
    items = []
    for k, n in enumerate(PHOTOS):
        protos = [c2_proto(4, strings=[photo(n)]), c2_proto(2, ints=[k % 3]),
                  c2_proto(1, floats=[k * 0.5, -k, 2.0][: 1 + k % 3]),
                  c2_proto(2, ints=[k, k + 1, 2 * k + 5, 3 * k + 7])]
        items.append((b"%08d" % k, b"".join(_ld(1, p) for p in protos)))
    lmdb_write(root + "/photos.lmdb", items)
    items = []
    for k in range(6):
        idx = sorted({k % 5, (2 * k + 1) % 5})
        protos = [c2_proto(2, ints=idx), c2_proto(1, floats=[0.25 * (j + 1) for j in idx])]
        items.append((b"%04d" % k, b"".join(_ld(1, p) for p in protos)))
    lmdb_write(root + "/sparse.lmdb", items)


# ---- NeMo ASR manifests ------------------------------------------------------------------

def make_nemo(root="/tmp/dalic_oracle_nemo"):
    """Speech clips from samples/c/make_audio (WAV, FLAC, OGG at 16 / 22.05 / 44.1 kHz, mono
    and stereo) and JSON-lines manifests over them: main.json with offsets, durations, texts,
    an entry without duration or text, a line that is not JSON and one without an
    audio_filepath (both skipped with a warning); more.json, a second manifest; pcm.json, the
    WAV and FLAC clips; many.json, 23 short WAV / FLAC entries for the order cases."""
    import subprocess
    audio = os.path.join(root, "audio")
    os.makedirs(root, exist_ok=True)
    if not os.path.isdir(audio):
        subprocess.run([os.path.join(ROOT, "build/release/samples/make_audio"), audio, "8"],
                       check=True)
    clips = sorted(os.listdir(audio))
    main = []
    for i, name in enumerate(clips[:6]):
        e = {"audio_filepath": os.path.join(audio, name), "duration": 0.6 + 0.15 * i,
             "text": "utterance number %d" % i}
        if i == 2:
            e["offset"] = 0.3
        if i == 4:
            del e["duration"], e["text"]
        main.append(json.dumps(e))
    main.insert(3, "this line is not json")
    main.insert(5, json.dumps({"duration": 1.0, "text": "no audio path"}))
    with open(os.path.join(root, "main.json"), "w") as f:
        f.write("\n".join(main) + "\n")
    with open(os.path.join(root, "more.json"), "w") as f:
        for i, name in enumerate(clips[5:]):
            f.write(json.dumps({"audio_filepath": os.path.join(audio, name),
                                "duration": 0.4 + 0.5 * i, "offset": 0.1 * i,
                                "text": "second manifest %d" % i}) + "\n")
    # Debian's libvorbis decodes OGG within a float ulp of DALI's bundled one: the exact cases
    # read WAV and FLAC only
    pcm = [c for c in clips if not c.endswith(".ogg")]
    with open(os.path.join(root, "many.json"), "w") as f:
        for i in range(23):
            f.write(json.dumps({"audio_filepath": os.path.join(audio, pcm[i % len(pcm)]),
                                "duration": 0.05 + 0.01 * i, "text": str(i)}) + "\n")
    with open(os.path.join(root, "pcm.json"), "w") as f:
        for i, name in enumerate(pcm):
            f.write(json.dumps({"audio_filepath": os.path.join(audio, name),
                                "duration": 0.5 + 0.2 * i, "offset": 0.05 * i,
                                "text": "pcm %s" % name}) + "\n")
    with open(os.path.join(root, "empty.json"), "w") as f:
        f.write("not a manifest\n")
    with open(os.path.join(root, "missing.json"), "w") as f:
        f.write(json.dumps({"audio_filepath": os.path.join(root, "nowhere.wav")}) + "\n")
