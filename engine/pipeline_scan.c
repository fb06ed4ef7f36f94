/*
 * The data scan (dalic_pipeline_make_scan): the definition rewritten so that only reading and
 * decoding remain, whole images decoded, every sample read once, refused samples logged
 * instead of stopping the pipeline.
 */
#include "engine/error.h"
#include "engine/pipeline.h"
#include "engine/schema.h"

#include <stdio.h>
#include <string.h>

static bool scan_is_decoder(const dalic_opdef_t *op)
{
	static const char *names[] = {"decoders__Image", "decoders__ImageRandomCrop",
	                              "decoders__ImageCrop", "decoders__ImageSlice"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(op->schema->name, names[i]))
			return true;
	return false;
}

/* Sets a bool/int argument of a reader when its schema has it. */
static int scan_reader_arg(dalic_opdef_t *op, const char *arg, bool is_bool, int64_t v)
{
	if (!dalic_schema_arg(op->schema, arg))
		return DALIC_OK;
	dalic_value_t val = {0};
	int rc = is_bool ? dalic_value_bool(&val, v != 0) : dalic_value_int(&val, v);
	if (!rc)
		rc = dalic_graphdef_op_set_arg(op, arg, &val);
	dalic_value_free(&val);
	return rc;
}

/* Every sample once: no shuffling, one shard; files read() straight into the batch (the
 * same bytes: a map, copy and unmap per file costs a scan of small files a few percent). */
static int scan_reader(dalic_opdef_t *op)
{
	DALIC_TRY(scan_reader_arg(op, "dont_use_mmap", true, 1));
	DALIC_TRY(scan_reader_arg(op, "random_shuffle", true, 0));
	DALIC_TRY(scan_reader_arg(op, "shuffle_after_epoch", true, 0));
	DALIC_TRY(scan_reader_arg(op, "num_shards", false, 1));
	return scan_reader_arg(op, "shard_id", false, 0);
}

/* A whole-image decoders.image in place of decoder `d`: same input and colour arguments. */
static int scan_decoder(dalic_graphdef_t *def, const dalic_opdef_t *d)
{
	if (d->num_regular_inputs < 1)
		return DALIC_OK;
	char name[512];
	snprintf(name, sizeof name, "%s_scan", d->inst);
	dalic_opdef_t *op;
	DALIC_TRY(dalic_graphdef_add_op(def, "decoders.image", "cpu", &op));
	DALIC_TRY(dalic_graphdef_op_set_name(op, name));
	DALIC_TRY(dalic_graphdef_op_add_input(op, d->inputs[0].name, "cpu"));
	static const char *keep[] = {"output_type", "adjust_orientation"};
	for (int k = 0; k < 2; k++) {
		const dalic_value_t *v = dalic_graphdef_op_arg(d, keep[k]);
		if (v)
			DALIC_TRY(dalic_graphdef_op_set_arg(op, keep[k], v));
	}
	return dalic_graphdef_add_output(def, op->outputs[0], "cpu");
}

int dalic_pipeline_make_scan(dalic_pipeline_t *p)
{
	if (!p)
		return dalic_fail(DALIC_EINVAL, "dalic_pipeline_make_scan: NULL pipeline");
	if (dalic_pipeline_graph(p))
		return dalic_fail(DALIC_ESTATE, "a built pipeline cannot become a scan");
	dalic_graphdef_t *def = dalic_pipeline_graphdef(p);
	int n = def->num_ops, decoders = 0;
	for (int i = 0; i < n; i++) {
		if (def->ops[i]->schema->is_reader)
			DALIC_TRY(scan_reader(def->ops[i]));
		decoders += scan_is_decoder(def->ops[i]);
	}
	if (!decoders)
		return dalic_fail(DALIC_EINVAL, "nothing to scan: the pipeline has no image decoder "
		                                "(decoders.image, image_random_crop, image_crop, "
		                                "image_slice)");
	dalic_graphdef_clear_outputs(def);
	for (int i = 0; i < n; i++)
		if (scan_is_decoder(def->ops[i]))
			DALIC_TRY(scan_decoder(def, def->ops[i]));
	return dalic_pipeline_set_scan(p);
}
