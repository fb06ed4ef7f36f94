# oracle: checks=outputs
# oracle: xfail=DALI 2.4 gets negative steps over a photo's rows wrong (docs/dali-differences.md)
# Subscripts with negative steps: rows reversed, every second column. dalic gives numpy's
# result; DALI 2.4 returns the first 18 rows right and then values from elsewhere.
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=2, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    return images[::-1, ::2]


pipe = oracle_pipe()
