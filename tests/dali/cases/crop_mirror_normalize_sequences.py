# crop_mirror_normalize on every sequence layout DALI accepts, exactly: photos cropped to
# 32x48 and cut into 4 frames of 8 rows (reshape to FHWC; decoded video differs from DALI's by
# a level, see video_sequence_cmn.py). FHWC into FCHW and CFHW (mirrored, per-channel), CFHW
# and FCHW inputs (transpose) into FHWC, a padded window (out_of_bounds_policy pad, per-channel
# fill_values) with pad_output, crop_d taking frames, uint8 and float16 outputs.
# oracle: atol=1e-3
# oracle: checks=outputs
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=3, num_threads=2, device_id=None, seed=1)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    img = fn.crop(fn.decoders.image(jpegs), crop=(32, 48))
    seq = fn.reshape(img, shape=[4, 8, 48, 3], layout="FHWC")
    cfhw = fn.transpose(seq, perm=[3, 0, 1, 2])
    fchw = fn.transpose(seq, perm=[0, 3, 1, 2])
    a = fn.crop_mirror_normalize(seq, crop=(6, 40), crop_pos_x=0.2, mirror=1,
                                 output_layout="FCHW", mean=[10, 20, 30], std=[2, 4, 8])
    b = fn.crop_mirror_normalize(seq, crop=(5, 30), output_layout="CFHW", mean=[5.0],
                                 std=[3.0], scale=2.0, shift=1.0)
    c = fn.crop_mirror_normalize(cfhw, crop=(8, 20), crop_pos_x=0.9, mirror=1,
                                 output_layout="FHWC", mean=[1, 2, 3], std=[4, 5, 6])
    d = fn.crop_mirror_normalize(fchw, crop=(4, 16), output_layout="FHWC", mean=[100.0])
    e = fn.crop_mirror_normalize(seq, crop=(12, 60), out_of_bounds_policy="pad",
                                 fill_values=[7, 8, 9], pad_output=True, output_layout="FCHW",
                                 mean=[100, 90, 80], std=[50, 40, 30])
    f = fn.crop_mirror_normalize(seq, crop_d=2, crop_h=4, crop_w=10, crop_pos_z=1.0,
                                 output_layout="FHWC", dtype=types.UINT8, mean=[10, 20, 30],
                                 std=[0.5, 0.5, 0.5], shift=3.0)
    g = fn.crop_mirror_normalize(fchw, crop=(6, 12), mirror=1, output_layout="CFHW",
                                 dtype=types.FLOAT16, mean=[128.0], std=[64.0])
    return a, b, c, d, e, f, g


pipe = oracle_pipe()
