# A Jasper / QuartzNet-style speech front end, as NVIDIA's DALI speech examples build it:
# decode and resample to 16 kHz mono, preemphasis, trim the leading and trailing silence,
# a 512-point spectrogram of 20 ms windows every 10 ms, 64 mel bands, log (dB), per-band
# normalization over time, and time padded to a multiple of 16 frames.
#
# The clips come from `make audio-samples` (samples/c/make_audio writes 12 speech-like WAV,
# FLAC and OGG clips into build/audio/speech/: label 0). Then, from the repository root:
#
#     dalic tui samples/scripts/speech.py        (the workbench: waveforms and spectrograms)
#     dalic run samples/scripts/speech.py -n 4
#
# Any directory of .wav/.flac/.ogg files (one subdirectory per label) works as file_root.
from nvidia.dali import pipeline_def, fn, types

SAMPLE_RATE = 16000


@pipeline_def(batch_size=4, num_threads=2, device_id=None)
def speech_pipeline():
    encoded, label = fn.readers.file(file_root="build/audio", name="Reader")
    audio, rate = fn.decoders.audio(encoded, dtype=types.FLOAT, downmix=True,
                                    sample_rate=SAMPLE_RATE)
    audio = fn.preemphasis_filter(audio, preemph_coeff=0.97)
    begin, length = fn.nonsilent_region(audio, cutoff_db=-60)
    speech = fn.slice(audio, begin, length, axes=[0])
    spec = fn.spectrogram(speech, nfft=512, window_length=320, window_step=160)
    mel = fn.mel_filter_bank(spec, sample_rate=SAMPLE_RATE, nfilter=64)
    log_mel = fn.to_decibels(mel, multiplier=10, reference=1.0, cutoff_db=-80)
    features = fn.normalize(log_mel, axes=[1])
    features = fn.pad(features, axes=[1], fill_value=0, align=16)
    return features, speech, label


pipe = speech_pipeline()
