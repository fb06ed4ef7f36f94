# crop_mirror_normalize on volumes, exactly: photos cropped to 32x48 and cut into depth slices
# (DHWC), a 3-D window from crop=(d, h, w) and crop_pos_z, mirrored, into CDHW; the same data
# as CDHW (transpose) into DHWC; and sequences of volumes (FDHWC into FCDHW, CFDHW into FDHWC).
# oracle: atol=1e-3
# oracle: checks=outputs
from nvidia.dali import pipeline_def, fn


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=1)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.crop(fn.decoders.image(jpegs), crop=(32, 48))
    vol = fn.reshape(img, shape=[4, 8, 48, 3], layout="DHWC")
    a = fn.crop_mirror_normalize(vol, crop=(2, 6, 30), crop_pos_z=1.0, mirror=1,
                                 output_layout="CDHW", mean=[1, 2, 3], std=[3, 2, 1])
    cdhw = fn.transpose(vol, perm=[3, 0, 1, 2])
    b = fn.crop_mirror_normalize(cdhw, crop=(3, 5, 10), output_layout="DHWC", mean=[64.0])
    fvol = fn.reshape(img, shape=[2, 2, 8, 48, 3], layout="FDHWC")
    c = fn.crop_mirror_normalize(fvol, crop=(1, 4, 20), mirror=1, output_layout="FCDHW",
                                 mean=[10, 20, 30], std=[2, 4, 8])
    cfvol = fn.transpose(fvol, perm=[4, 0, 1, 2, 3])
    d = fn.crop_mirror_normalize(cfvol, crop=(2, 6, 6), crop_pos_x=0.0, output_layout="FDHWC",
                                 std=[2.0])
    return a, b, c, d


pipe = oracle_pipe()
