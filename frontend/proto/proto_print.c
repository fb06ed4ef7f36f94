/*
 * `dalic show`: a PipelineDef as readable text, exactly as the file holds it — raw schema
 * names, argument type tags, fields left at their defaults marked as such — so a file dalic
 * cannot load can still be inspected. Argument values are written as Python literals;
 * strings are quoted, with anything unprintable escaped, so the output is always one line per
 * item whatever the file contains.
 */
#include "frontend/proto/proto_internal.h"

#include <ctype.h>
#include <inttypes.h>
#include <string.h>

static void print_put_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\'' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (isprint(*p))
			fputc(*p, f);
		else
			fprintf(f, "\\x%02x", *p);
	}
	fputc('\'', f);
}

/* Values of one Argument in whichever fields hold them (normally exactly one). */
static void print_put_scalar(FILE *f, const DaliProto__Argument *a)
{
	int n = 0;
	for (size_t i = 0; i < a->n_ints; i++, n++)
		fprintf(f, "%s%" PRId64, n ? ", " : "", a->ints[i]);
	for (size_t i = 0; i < a->n_floats; i++, n++)
		fprintf(f, "%s%.9g", n ? ", " : "", (double)a->floats[i]);
	for (size_t i = 0; i < a->n_bools; i++, n++)
		fprintf(f, "%s%s", n ? ", " : "", a->bools[i] ? "True" : "False");
	for (size_t i = 0; i < a->n_strings; i++, n++) {
		fputs(n ? ", " : "", f);
		print_put_str(f, a->strings[i]);
	}
	if (!n)
		fputs("(no value)", f);
}

static void print_put_arg(FILE *f, const DaliProto__Argument *a)
{
	fputs("    ", f);
	print_put_str(f, a->name);
	fputs(" = ", f);
	if (a->is_vector) {
		fputc('[', f);
		for (size_t i = 0; i < a->n_extra_args; i++) {
			fputs(i ? ", " : "", f);
			print_put_scalar(f, a->extra_args[i]);
		}
		fputc(']', f);
	} else {
		print_put_scalar(f, a);
	}
	fprintf(f, "  (%s%s)\n", a->is_vector ? "list of " : "", a->type ? a->type : "no type");
}

static void print_put_io(FILE *f, const DaliProto__InputOutput *io)
{
	if (io->is_argument_input) {
		fputs("argument ", f);
		print_put_str(f, io->arg_name ? io->arg_name : "");
		fputs(" <- ", f);
	}
	print_put_str(f, io->name);
	fputs(" on ", f);
	print_put_str(f, io->device);
}

static void print_put_op(FILE *f, size_t i, const DaliProto__OpDef *op)
{
	fprintf(f, "op %zu: ", i);
	print_put_str(f, op->name);
	if (op->inst_name) {
		fputs("  inst_name ", f);
		print_put_str(f, op->inst_name);
	}
	fprintf(f, "  logical_id %d%s\n", op->logical_id, op->has_logical_id ? "" : " (default)");
	for (size_t k = 0; k < op->n_input; k++) {
		fprintf(f, "  input %zu: ", k);
		print_put_io(f, op->input[k]);
		fputc('\n', f);
	}
	for (size_t k = 0; k < op->n_output; k++) {
		fprintf(f, "  output %zu: ", k);
		print_put_io(f, op->output[k]);
		fputc('\n', f);
	}
	if (op->n_args)
		fputs("  args:\n", f);
	for (size_t k = 0; k < op->n_args; k++)
		print_put_arg(f, op->args[k]);
}

static const char *print_dflt(protobuf_c_boolean has)
{
	return has ? "" : " (default)";
}

static void print_put_params(FILE *f, const DaliProto__PipelineDef *m)
{
	fprintf(f, "pipeline:\n");
	fprintf(f, "  batch_size %d\n", m->batch_size);
	fprintf(f, "  num_threads %" PRId64 "%s\n", m->num_threads, print_dflt(m->has_num_threads));
	fprintf(f, "  device_id %d%s%s\n", m->device_id, print_dflt(m->has_device_id),
	        m->device_id == DALIC_CPU_ONLY_DEVICE_ID ? " (CPU only)" : "");
	fprintf(f, "  seed %" PRId64 "%s\n", m->seed, print_dflt(m->has_seed));
	int t = m->executor_type;
	fprintf(f, "  executor_type %d%s (%s%s%s%s%s)\n", t, print_dflt(m->has_executor_type),
	        t & DALIC_EXEC_PIPELINED ? "pipelined " : "", t & DALIC_EXEC_ASYNC ? "async " : "",
	        t & DALIC_EXEC_SEPARATED ? "separated " : "",
	        t & DALIC_EXEC_DYNAMIC ? "dynamic " : "", t ? "executor" : "simple executor");
	fprintf(f, "  executor_flags %" PRId64 "%s\n", m->executor_flags,
	        print_dflt(m->has_executor_flags));
	fprintf(f, "  prefetch_queue_depth cpu %d%s, gpu %d%s\n", m->prefetch_queue_depth_cpu,
	        print_dflt(m->has_prefetch_queue_depth_cpu), m->prefetch_queue_depth_gpu,
	        print_dflt(m->has_prefetch_queue_depth_gpu));
	fprintf(f, "  bytes_per_sample_hint %" PRId64 "%s\n", m->bytes_per_sample_hint,
	        print_dflt(m->has_bytes_per_sample_hint));
	fprintf(f, "  enable_checkpointing %s%s\n", m->enable_checkpointing ? "True" : "False",
	        print_dflt(m->has_enable_checkpointing));
}

int dalic_proto_print(const uint8_t *buf, size_t len, FILE *f)
{
	DaliProto__PipelineDef *m;
	int rc = dalic_proto_unpack(buf, len, &m);
	if (rc)
		return rc;
	print_put_params(f, m);
	for (size_t i = 0; i < m->n_external_inputs; i++) {
		fputs(i ? ", " : "external_inputs (legacy): ", f);
		print_put_str(f, m->external_inputs[i]);
		fputs(i + 1 == m->n_external_inputs ? "\n" : "", f);
	}
	for (size_t i = 0; i < m->n_op; i++)
		print_put_op(f, i, m->op[i]);
	fputs("pipe_outputs:\n", f);
	for (size_t i = 0; i < m->n_pipe_outputs; i++) {
		const DaliProto__InputOutput *o = m->pipe_outputs[i];
		fprintf(f, "  %zu: ", i);
		print_put_io(f, o);
		fprintf(f, "  dtype %d (%s)  ndim %d", o->dtype,
		        o->dtype == -1 ? "any" : dalic_dtype_name(o->dtype), o->ndim);
		if (o->layout && *o->layout) {
			fputs("  layout ", f);
			print_put_str(f, o->layout);
		}
		fputc('\n', f);
	}
	dali_proto__pipeline_def__free_unpacked(m, NULL);
	return DALIC_OK;
}
