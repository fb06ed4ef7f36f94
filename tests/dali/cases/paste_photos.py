# paste: photos on canvases 1.5x and 2.3x their size at default and corner positions, a
# minimum canvas size, per-sample paste_x looked up from the labels, and fill values cast as
# DALI casts them (300 -> 44, -1 -> 255).
from nvidia.dali import pipeline_def, fn, types


@pipeline_def(batch_size=4, num_threads=2, device_id=None, seed=5)
def oracle_pipe():
    jpegs, labels = fn.readers.file(file_root="samples/images")
    images = fn.decoders.image(jpegs, output_type=types.RGB)
    x = fn.squeeze(fn.lookup_table(labels, keys=[0, 1, 2], values=[0.0, 0.35, 1.0]), axes=[0])
    return (fn.paste(images, ratio=1.5, fill_value=(300, -1, 7)),
            fn.paste(images, ratio=2.3, paste_x=0.1, paste_y=0.95, fill_value=128),
            fn.paste(images, ratio=1, min_canvas_size=700.9, fill_value=(10, 20, 30)),
            fn.paste(images, ratio=1.25, paste_x=x, paste_y=0.0, fill_value=(1, 2, 3)))


pipe = oracle_pipe()
