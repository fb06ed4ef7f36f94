/*
 * The inspection side of `dalic debug`: print, info, save, and the stop report after every
 * run command. Node expressions are NODE, NODE[i] or NODE[i][slice]; since names of
 * multi-output operators contain brackets themselves ("__File_1[1]"), the longest prefix that
 * names a data node wins: __File_1[1][3] is sample 3 of node __File_1[1].
 */
#include "cli/cmd_debug.h"

#include "cli/dump.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- node expressions ---- */

typedef struct node_ref {
	char name[256];
	int sample;      /* -1: the whole batch */
	char slice[256]; /* "" when none */
} node_ref_t;

static bool debug_info_node_known(dalic_debug_t *s, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < dalic_debug_num_nodes(s); i++) {
		const char *node = dalic_debug_node_name(s, i);
		if (!strcmp(node, name))
			return true;
		if (n > 4 && strlen(node) == n - 4 && !strncmp(node, name, n - 4) &&
		    (!strcmp(name + n - 4, "_cpu") || !strcmp(name + n - 4, "_gpu")))
			return true;
	}
	return dalic_debug_find_op(s, name) >= 0;
}

static int debug_info_ref_error(const char *expr, const char *what)
{
	fprintf(stderr, "error: '%s': %s\n", expr, what);
	return DALIC_EINVAL;
}

/* Parses "[i]" then an optional "[slice]" after the name. */
static int debug_info_parse_index(const char *expr, const char *p, node_ref_t *r)
{
	char *end;
	r->sample = -1;
	r->slice[0] = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return DALIC_OK;
	if (*p != '[')
		return debug_info_ref_error(expr, "expected [sample] after the node name");
	long v = strtol(p + 1, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == p + 1 || *end != ']' || v < 0)
		return debug_info_ref_error(expr,
		                            "the sample index must be a non-negative integer");
	r->sample = (int)v;
	p = end + 1;
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return DALIC_OK;
	const char *close = strrchr(p, ']');
	if (*p != '[' || !close || close[1] || (size_t)(close - p - 1) >= sizeof r->slice)
		return debug_info_ref_error(expr,
		                            "expected a slice such as [0:2, 0:2] after [sample]");
	memcpy(r->slice, p + 1, (size_t)(close - p - 1));
	r->slice[close - p - 1] = 0;
	return DALIC_OK;
}

static int debug_info_parse_ref(dalic_debug_t *s, const char *expr, node_ref_t *r)
{
	size_t n = strlen(expr);
	if (!n)
		return debug_info_ref_error(expr, "expected a data node name");
	for (size_t cut = n; cut > 0; cut--) {
		if (cut < n && expr[cut] != '[')
			continue;
		if (cut >= sizeof r->name)
			continue;
		memcpy(r->name, expr, cut);
		r->name[cut] = 0;
		if (debug_info_node_known(s, r->name))
			return debug_info_parse_index(expr, expr + cut, r);
	}
	fprintf(stderr, "error: no data node or operator named '%.*s' (see info graph)\n",
	        (int)strcspn(expr, "["), expr);
	return DALIC_EINVAL;
}

/* The batch behind a reference, with a note when it is older than the current iteration. */
static const dalic_batch_t *debug_info_ref_batch(dalic_debug_t *s, const node_ref_t *r, int64_t *it)
{
	const dalic_batch_t *b = dalic_debug_node(s, r->name, it);
	if (!b) {
		fprintf(stderr, "error: %s\n", dalic_last_error());
		return NULL;
	}
	if (r->sample >= dalic_batch_num_samples(b)) {
		fprintf(stderr, "error: %s has %d samples\n", r->name, dalic_batch_num_samples(b));
		return NULL;
	}
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	if (*it < st.iteration)
		printf("# %s holds iteration %lld (it has not run yet in iteration %lld)\n",
		       r->name, (long long)*it, (long long)st.iteration);
	return b;
}

static void debug_info_print_shape(const dalic_batch_t *b, int i)
{
	printf("(");
	for (int d = 0; d < dalic_batch_ndim(b); d++)
		printf("%s%lld", d ? ", " : "", (long long)dalic_batch_shape(b, i)[d]);
	printf(dalic_batch_ndim(b) == 1 ? ",)" : ")");
}

int dalic_cli_debug_print(dalic_debug_t *s, const char *arg)
{
	node_ref_t r;
	int64_t it;
	int rc = debug_info_parse_ref(s, arg, &r);
	if (rc)
		return rc;
	const dalic_batch_t *b = debug_info_ref_batch(s, &r, &it);
	if (!b)
		return DALIC_EINVAL;
	char *text = NULL;
	if (r.sample < 0) {
		rc = dalic_debug_format_batch(b, r.name, &text);
	} else {
		printf("%s[%d]: shape ", r.name, r.sample);
		debug_info_print_shape(b, r.sample);
		printf(", %s", dalic_dtype_name(dalic_batch_dtype(b)));
		const char *src = dalic_batch_source(b, r.sample);
		printf(src ? ", source %s\n" : "\n", src);
		rc = dalic_debug_format_sample(b, r.sample, r.slice[0] ? r.slice : NULL, &text);
	}
	if (rc) {
		fprintf(stderr, "error: %s\n", dalic_last_error());
		return rc;
	}
	printf("%s\n", text);
	free(text);
	return DALIC_OK;
}

/* ---- info ---- */

static void debug_info_print_stats(const dalic_batch_t *b, int i)
{
	dalic_debug_stats_t st;
	if (dalic_debug_stats(b, i, &st)) {
		printf("(no statistics for %s)", dalic_dtype_name(dalic_batch_dtype(b)));
		return;
	}
	printf("min %.6g max %.6g mean %.6g std %.6g nan %lld inf %lld", st.min, st.max, st.mean,
	       st.std, (long long)st.nan_count, (long long)st.inf_count);
}

static const char *debug_info_producer_of(dalic_debug_t *s, const char *node,
                                          dalic_debug_op_info_t *op)
{
	for (int i = 0; i < dalic_debug_num_ops(s); i++) {
		dalic_debug_op_info_t o;
		dalic_debug_op_info(s, i, &o);
		for (int k = 0; k < o.num_outputs; k++)
			if (!strcmp(o.outputs[k], node)) {
				*op = o;
				return o.name;
			}
	}
	return NULL;
}

static int debug_info_info_node(dalic_debug_t *s, const char *arg)
{
	node_ref_t r;
	int64_t it;
	int rc = debug_info_parse_ref(s, arg, &r);
	if (rc)
		return rc;
	const dalic_batch_t *b = debug_info_ref_batch(s, &r, &it);
	if (!b)
		return DALIC_EINVAL;
	dalic_debug_op_info_t op;
	if (debug_info_producer_of(s, r.name, &op))
		printf("node %s: output of %s (%s, %s%s), iteration %lld\n", r.name, op.name,
		       op.schema, op.device, op.emulated ? ", emulated" : "", (long long)it);
	else
		printf("node %s, iteration %lld\n", r.name, (long long)it);
	int n = dalic_batch_num_samples(b);
	printf("dtype %s, layout \"%s\", device %s, %d samples\n",
	       dalic_dtype_name(dalic_batch_dtype(b)), dalic_batch_layout(b), dalic_batch_device(b),
	       n);
	printf("batch: ");
	debug_info_print_stats(b, -1);
	printf("\n");
	for (int i = r.sample < 0 ? 0 : r.sample; i < (r.sample < 0 ? n : r.sample + 1); i++) {
		printf("sample %d: shape ", i);
		debug_info_print_shape(b, i);
		printf(" ");
		debug_info_print_stats(b, i);
		const char *src = dalic_batch_source(b, i);
		printf(src ? " source %s\n" : "\n", src);
	}
	return DALIC_OK;
}

static int debug_info_info_graph(dalic_debug_t *s)
{
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	printf("   #  %-30s %-24s %-6s inputs -> outputs\n", "operator", "schema", "device");
	for (int i = 0; i < st.num_ops; i++) {
		dalic_debug_op_info_t o;
		dalic_debug_op_info(s, i, &o);
		printf("%s%3d  %-30s %-24s %-6s", i == st.next_op ? "=>" : "  ", i, o.name,
		       o.schema, o.device);
		for (int k = 0; k < o.num_inputs; k++)
			printf(o.input_args[k] ? " %s=%s" : " %s%s",
			       o.input_args[k] ? o.input_args[k] : "", o.inputs[k]);
		printf(" ->");
		for (int k = 0; k < o.num_outputs; k++)
			printf(" %s", o.outputs[k]);
		printf("%s\n", o.emulated ? "  (emulated on the CPU)" : "");
	}
	for (int i = 0; i < dalic_debug_num_outputs(s); i++)
		printf("output %d: %s\n", i, dalic_debug_output_name(s, i));
	return DALIC_OK;
}

static int debug_info_info_stats(dalic_debug_t *s)
{
	int n = dalic_debug_num_ops(s);
	int64_t total = 0;
	for (int i = 0; i < n; i++) {
		dalic_debug_op_info_t o;
		dalic_debug_op_info(s, i, &o);
		total += o.last_iteration >= 0 ? o.last_ns : 0;
	}
	printf("%-30s %-24s %9s %11s %6s %6s %11s\n", "operator", "schema", "iteration", "last_ms",
	       "share", "runs", "mean_ms");
	for (int i = 0; i < n; i++) {
		dalic_debug_op_info_t o;
		dalic_debug_op_info(s, i, &o);
		if (o.last_iteration < 0) {
			printf("%-30s %-24s %9s\n", o.name, o.schema, "-");
			continue;
		}
		printf("%-30s %-24s %9lld %11.3f %5.1f%% %6lld %11.3f\n", o.name, o.schema,
		       (long long)o.last_iteration, (double)o.last_ns * 1e-6,
		       total ? 100.0 * (double)o.last_ns / (double)total : 0, (long long)o.runs,
		       o.runs ? (double)o.total_ns * 1e-6 / (double)o.runs : 0);
	}
	printf("total: %.3f ms\n", (double)total * 1e-6);
	return DALIC_OK;
}

static int debug_info_info_breaks(dalic_debug_t *s)
{
	static const char *kinds[] = {"operator", "iteration", "condition", "warning"};
	int n = dalic_debug_num_breaks(s);
	if (!n)
		printf("no breakpoints\n");
	for (int i = 0; i < n; i++) {
		dalic_debug_break_t b;
		dalic_debug_break_get(s, i, &b);
		printf("%d: %s %s (hit %lld times)\n", b.id, kinds[b.kind], b.text,
		       (long long)b.hits);
	}
	return DALIC_OK;
}

static int debug_info_info_perf(dalic_debug_t *s, const char *arg)
{
	long n = *arg ? strtol(arg, NULL, 10) : 10;
	if (n <= 0) {
		fprintf(stderr, "error: info perf N: N must be a positive number\n");
		return DALIC_EINVAL;
	}
	dalic_debug_perf_t perf;
	int rc = dalic_debug_measure(s, n, &perf);
	if (rc) {
		fprintf(stderr, "error: %s\n", dalic_last_error());
		return rc;
	}
	printf("iterations: %lld\n", (long long)perf.iterations);
	printf("full_engine_seconds: %.6f\n", perf.full_seconds);
	printf("debug_seconds: %.6f\n", perf.debug_seconds);
	printf("slowdown: %.3fx\n", perf.slowdown);
	return DALIC_OK;
}

int dalic_cli_debug_info(dalic_debug_t *s, const char *arg)
{
	const char *rest = arg + strcspn(arg, " \t");
	while (isspace((unsigned char)*rest))
		rest++;
	size_t n = strcspn(arg, " \t");
	if (n == 5 && !strncmp(arg, "graph", 5))
		return debug_info_info_graph(s);
	if (n == 5 && !strncmp(arg, "stats", 5))
		return debug_info_info_stats(s);
	if (n == 4 && !strncmp(arg, "node", 4))
		return debug_info_info_node(s, rest);
	if ((n == 5 && !strncmp(arg, "break", 5)) || (n == 11 && !strncmp(arg, "breakpoints", 11)))
		return debug_info_info_breaks(s);
	if (n == 4 && !strncmp(arg, "perf", 4))
		return debug_info_info_perf(s, rest);
	if (n == 5 && !strncmp(arg, "error", 5)) {
		const char *e = dalic_debug_last_error(s);
		printf("%s\n", *e ? e : "no error");
		return DALIC_OK;
	}
	fprintf(stderr, "error: info what? graph, node NODE, stats, break, error, perf [N]\n");
	return DALIC_EINVAL;
}

/* ---- save ---- */

int dalic_cli_debug_save(dalic_debug_t *s, const char *arg)
{
	const char *file = strrchr(arg, ' ');
	if (!file) {
		fprintf(stderr, "error: usage: save NODE[i] FILE (.npy, .png, .ppm or .pgm)\n");
		return DALIC_EINVAL;
	}
	char expr[512];
	snprintf(expr, sizeof expr, "%.*s", (int)(file - arg), arg);
	file++;
	node_ref_t r;
	int64_t it;
	int rc = debug_info_parse_ref(s, expr, &r);
	if (rc)
		return rc;
	if (r.sample < 0 || r.slice[0]) {
		fprintf(stderr, "error: save takes one sample: NODE[i] FILE\n");
		return DALIC_EINVAL;
	}
	const dalic_batch_t *b = debug_info_ref_batch(s, &r, &it);
	if (!b)
		return DALIC_EINVAL;
	size_t n = strlen(file);
	if (n > 4 && !strcmp(file + n - 4, ".npy")) {
		if ((rc = dalic_cli_dump_npy(file, b, r.sample))) /* it printed the error */
			return rc;
	} else if ((rc = dalic_debug_save_image(b, r.sample, file))) {
		fprintf(stderr, "error: %s\n", dalic_last_error());
		return rc;
	}
	printf("saved %s[%d] to %s\n", r.name, r.sample, file);
	return DALIC_OK;
}

/* ---- stops ---- */

void dalic_cli_debug_show_position(dalic_debug_t *s)
{
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	char epoch[48] = ""; /* DALI's epoch_idx, once past an end of data or from a checkpoint */
	if (st.epoch_idx)
		snprintf(epoch, sizeof epoch, " (epoch_idx %lld)", (long long)st.epoch_idx);
	if (!st.next_op_name) {
		printf("iteration %lld complete; next: iteration %lld%s\n", (long long)st.iteration,
		       (long long)st.iteration + 1, epoch);
		return;
	}
	dalic_debug_op_info_t o;
	dalic_debug_op_info(s, st.next_op, &o);
	printf("iteration %lld, next operator %d/%d: %s (%s)%s\n", (long long)st.iteration,
	       st.next_op, st.num_ops, o.name, o.schema, epoch);
}

static void debug_info_show_error(dalic_debug_t *s, const dalic_debug_status_t *st)
{
	printf("error in %s", st->stop_op ? st->stop_op : "the inputs");
	if (st->stop_sample >= 0)
		printf(", sample %d", st->stop_sample);
	if (st->stop_source)
		printf(", file '%s'", st->stop_source);
	printf(", iteration %lld:\n  %s\n", (long long)st->iteration, dalic_debug_last_error(s));
	int k = st->stop_op ? dalic_debug_find_op(s, st->stop_op) : -1;
	dalic_debug_op_info_t o;
	if (k < 0 || dalic_debug_op_info(s, k, &o) || !o.num_inputs)
		return;
	printf("inputs of %s:", o.name);
	for (int i = 0; i < o.num_inputs; i++)
		printf(" %s", o.inputs[i]);
	if (st->stop_sample >= 0)
		printf("  (inspect: print %s[%d], info node %s)", o.inputs[0], st->stop_sample,
		       o.inputs[0]);
	printf("\n");
}

void dalic_cli_debug_show_stop(dalic_debug_t *s, int rc)
{
	dalic_debug_status_t st;
	dalic_debug_status(s, &st);
	switch (st.stop) {
	case DALIC_DEBUG_STOP_BREAK_OP:
		printf("breakpoint %d: before %s\n", st.break_id, st.stop_op);
		break;
	case DALIC_DEBUG_STOP_BREAK_ITER:
		printf("breakpoint %d: iteration %lld starts\n", st.break_id,
		       (long long)st.iteration);
		break;
	case DALIC_DEBUG_STOP_COND: {
		dalic_debug_break_t b = {0};
		for (int i = 0; i < dalic_debug_num_breaks(s); i++)
			if (!dalic_debug_break_get(s, i, &b) && b.id == st.break_id)
				break;
		printf("condition %d (%s) holds on %s[%d] after %s ran", st.break_id,
		       b.text ? b.text : "?", st.stop_node, st.stop_sample, st.stop_op);
		printf(st.stop_source ? ", file '%s'\n" : "\n", st.stop_source);
		break;
	}
	case DALIC_DEBUG_STOP_WARNING:
		printf("breakpoint %d: %s warned about sample %d", st.break_id, st.stop_op,
		       st.stop_sample);
		printf(st.stop_source ? ", file '%s'" : "", st.stop_source);
		printf(": %s\n", st.stop_message ? st.stop_message : "?");
		break;
	case DALIC_DEBUG_STOP_ERROR:
		debug_info_show_error(s, &st);
		break;
	case DALIC_DEBUG_STOP_END:
		printf("end of data after %lld iterations\n", (long long)st.iterations_done);
		return;
	case DALIC_DEBUG_STOP_INTERRUPT:
		printf("interrupted\n");
		break;
	default:
		if (rc && rc != DALIC_EOP)
			printf("error: %s\n", dalic_last_error());
	}
	dalic_cli_debug_show_position(s);
}
