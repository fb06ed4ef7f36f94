# reductions.std_dev and variance on decoded photos with the mean from reductions.mean:
# per channel, per row, full, ddof, keep_dims (exact: float pairwise sums of (x - mean)^2).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, _ = fn.readers.file(file_root="samples/images")
    im = fn.decoders.image(jpegs, output_type=types.RGB)
    r = fn.reductions
    m_hw = r.mean(im, axis_names="HW")
    m_row = r.mean(im, axes=[1, 2], keep_dims=True)
    m_all = r.mean(im)
    f = fn.cast(im, dtype=types.FLOAT)
    return (r.std_dev(im, m_hw, axis_names="HW"), r.variance(im, m_hw, axes=[0, 1], ddof=1),
            r.std_dev(im, m_row, axes=[1, 2], keep_dims=True), r.std_dev(im, m_all),
            r.variance(f, r.mean(f, axes=[0]), axes=[0]), r.std_dev(im, m_all, axes=[]))


pipe = oracle_pipe()
