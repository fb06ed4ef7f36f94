/*
 * executor_statistics of the image pipeline DALI's own test uses for its expectations:
 * readers.file -> decoders.image -> resize 256x256 -> crop_mirror_normalize 224x224 float at
 * batch 10, whose output is 224*224*3*10*4 bytes. Once on the cpu (a packed batch reported
 * per sample: the largest sample) and once through mixed/gpu stages (contiguous: ceil of the
 * average; the stages are emulated on the cpu without a GPU), in every executor mode.
 */
#include "tests/testlib.h"

TestSuite(stats_images, .timeout = 60);

#define CMN_SAMPLE ((int64_t)224 * 224 * 3 * 4)

static dalic_pipeline_t *stats_images_image_pipeline(const tl_mode_t *m, bool gpu)
{
	dalic_pipeline_params_t prm = tl_mode_params(m, 10, 2);
	prm.device_id = gpu ? 0 : DALIC_CPU_ONLY_DEVICE_ID;
	prm.seed = 3;
	prm.enable_memory_stats = true;
	dalic_pipeline_t *p;
	ASSERT_OK(dalic_pipeline_create(&prm, &p));
	dalic_op_t *rd, *dec, *rs, *cmn;
	ASSERT_OK(dalic_pipeline_add_op(p, "readers.file", "cpu", &rd));
	ASSERT_OK(dalic_op_set_name(rd, "reader"));
	ASSERT_OK(dalic_op_set_string(rd, "file_root", "samples/images"));
	ASSERT_OK(dalic_pipeline_add_op(p, "decoders.image", gpu ? "mixed" : "cpu", &dec));
	ASSERT_OK(dalic_op_set_name(dec, "decode"));
	ASSERT_OK(dalic_op_add_input(dec, dalic_op_output(rd, 0), NULL));
	ASSERT_OK(dalic_pipeline_add_op(p, "resize", gpu ? "gpu" : "cpu", &rs));
	ASSERT_OK(dalic_op_set_name(rs, "resize"));
	ASSERT_OK(dalic_op_add_input(rs, "decode", NULL));
	ASSERT_OK(dalic_op_set_float(rs, "resize_x", 256));
	ASSERT_OK(dalic_op_set_float(rs, "resize_y", 256));
	ASSERT_OK(dalic_pipeline_add_op(p, "crop_mirror_normalize", gpu ? "gpu" : "cpu", &cmn));
	ASSERT_OK(dalic_op_set_name(cmn, "cmn"));
	ASSERT_OK(dalic_op_add_input(cmn, "resize", NULL));
	const double crop[2] = {224, 224};
	ASSERT_OK(dalic_op_set_floats(cmn, "crop", 2, crop));
	ASSERT_OK(dalic_op_set_int(cmn, "dtype", DALIC_FLOAT));
	ASSERT_OK(dalic_pipeline_add_output(p, "cmn", NULL));
	return p;
}

static void stats_images_check(bool gpu)
{
	for (int m = 0; m < TL_NUM_MODES; m++) {
		const char *mode = tl_modes[m].name;
		dalic_pipeline_t *p = stats_images_image_pipeline(&tl_modes[m], gpu);
		dalic_stats_t *s = tl_stats_attach(p, false);
		tl_stats_run(p, 3);
		tl_stats_wait_idle(s, &tl_modes[m], 3);
		dalic_stats_snapshot_t *snap = tl_stats_finish(s, p);
		const dalic_stats_operator_t *cmn = tl_stats_find(snap, "cmn");
		cr_expect_str_eq(cmn->key, gpu ? "GPU_cmn" : "CPU_cmn", "%s", mode);
		const dalic_stats_output_t *o = &cmn->outputs[0];
		cr_expect_eq(o->real_memory_size, 10 * CMN_SAMPLE, "%s: %lld", mode,
		             (long long)o->real_memory_size);
		/* uniform samples: the largest sample and ceil(average) agree */
		cr_expect_eq(o->max_real_memory_size, CMN_SAMPLE, "%s: %lld", mode,
		             (long long)o->max_real_memory_size);
		/* one buffer either way: packed on the cpu, 64-byte aligned samples on the gpu */
		cr_expect(o->contiguous, "%s", mode);
		cr_expect_geq(o->reserved_memory_size, o->real_memory_size);
		cr_expect_eq(o->suggested_hint, CMN_SAMPLE);
		/* resize: 256x256x3 uint8 per sample */
		const dalic_stats_operator_t *rs = tl_stats_find(snap, "resize");
		cr_expect_eq(rs->outputs[0].real_memory_size, 10 * 256 * 256 * 3, "%s", mode);
		cr_expect_str_eq(tl_stats_find(snap, "decode")->key,
		                 gpu ? "MIXED_decode" : "CPU_decode");
		if (gpu) {
			cr_expect(snap->stages[1].present && snap->stages[2].present, "%s", mode);
			cr_expect_eq(o->memory_kind, 2, "%s: gpu output not device memory", mode);
			/* the reader's data feeds a mixed operator: pinned, as in DALI */
			cr_expect_eq(tl_stats_find(snap, "reader")->outputs[0].memory_kind, 1, "%s",
			             mode);
		}
		if (!gpu)
			cr_expect(!snap->emulated_device,
			          "%s: a cpu-only pipeline emulates nothing", mode);
		/* the decoder's buffer grew for the largest image; the event names its file */
		bool named = false;
		for (int i = 0; i < snap->num_growth; i++)
			named |= !strcmp(snap->growth[i].op, "decode") && snap->growth[i].source;
		cr_expect(named, "%s: no decoder growth event names a file", mode);
		dalic_stats_snapshot_free(snap);
		dalic_stats_destroy(s);
	}
}

Test(stats_images, cmn_224x224x3_float_batch_10_on_the_cpu)
{
	stats_images_check(false);
}

Test(stats_images, cmn_224x224x3_float_batch_10_through_mixed_and_gpu)
{
	stats_images_check(true);
}
