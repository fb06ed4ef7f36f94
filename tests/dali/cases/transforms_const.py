# transforms.*: constant-argument matrices in 1-D to 6-D, centers, 3-D rotations about odd axes,
# input transforms with and without reverse_order, and combine of three; float32 bit for bit.
from nvidia.dali import pipeline_def, fn

T = fn.transforms


@pipeline_def(batch_size=2, num_threads=1, device_id=None, seed=5)
def oracle_pipe():
    tr = T.translation(offset=[1.5, -2.25])
    tr1 = T.translation(offset=[3.0])
    tr6 = T.translation(offset=[1, 2, 3, 4, 5, 6])
    sc = T.scale(scale=[2.0, 0.5], center=[10.0, -3.0])
    sc_n = T.scale(scale=[1.75], ndim=3)
    sc_in = T.scale(tr, scale=[3.0])
    rot = T.rotation(angle=33.3, center=[4.0, 7.5])
    rot3 = T.rotation(angle=-71.0, axis=[1.0, 2.0, 0.5], center=[1.0, 2.0, 3.0])
    rot3_unit = T.rotation(angle=200.0, axis=[0.0, -3.0, 0.0])
    sh = T.shear(shear=[0.25, -0.75], center=[2.0, 1.0])
    sh_ang = T.shear(angles=[30.0, -12.5])
    sh3 = T.shear(shear=[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], center=[1.0, 1.0, 1.0])
    sh3_ang = T.shear(angles=[10.0, 20.0, -30.0, 40.0, 50.0, -60.0])
    cr = T.crop(from_start=[10.0, 20.0], from_end=[110.0, 220.0], to_start=[-1.0], to_end=[1.0])
    cr_abs = T.crop(from_start=[5.0, 0.0, 3.0], from_end=[1.0, 10.0, 9.0], to_end=[2.0],
                    absolute=True)
    rot_in = T.rotation(sh, angle=-45.0)
    rot_rev = T.rotation(sh, angle=-45.0, reverse_order=True)
    comb = T.combine(tr, rot, sc)
    comb_rev = T.combine(tr, rot, sc, reverse_order=True)
    return (tr, tr1, tr6, sc, sc_n, sc_in, rot, rot3, rot3_unit, sh, sh_ang, sh3, sh3_ang, cr,
            cr_abs, rot_in, rot_rev, comb, comb_rev)


pipe = oracle_pipe()
