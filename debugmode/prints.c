/*
 * print() replay for pipelines defined with debug=True. DALI runs the pipeline function
 * eagerly, so a print(node) inside it shows the node's value at that point of every
 * iteration. The front end records each print (text, nodes, whether .get() was called) in
 * program order; the session replays record k once, in the current iteration, all of these
 * have run: the operators producing its nodes, and the operators defined above it in the
 * same file (so a print between two operators comes out between them). Records keep their
 * order: one waits for the one before it.
 *
 * Output follows Python's print(): the text, then each value separated by a space, then a
 * newline; a node prints as DALI's DataNodeDebug repr, node.get() as its TensorList repr.
 */
#include "debugmode/format.h"
#include "debugmode/session.h"

#include "engine/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dalic_debug_prints_init(dalic_debug_t *s)
{
	const dalic_graphdef_t *def = s->def;
	s->print_after = calloc((size_t)def->num_prints + 1, sizeof *s->print_after);
	if (!s->print_after)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	for (int p = 0; p < def->num_prints; p++) {
		const dalic_debug_print_t *r = &def->prints[p];
		int after = p > 0 ? s->print_after[p - 1] : -1;
		for (int k = 0; k < r->num_nodes; k++) {
			const dalic_edge_t *e = dalic_debug_find_edge(s, r->nodes[k]);
			if (!e)
				return dalic_fail(DALIC_EGRAPH,
				                  "print(): data node \"%s\" is not in the built "
				                  "pipeline",
				                  r->nodes[k]);
			int pos = s->pos_of[e->producer->index];
			after = pos > after ? pos : after;
		}
		for (int i = 0; r->pos.file && i < def->num_ops; i++) {
			const dalic_opdef_t *op = def->ops[i];
			if (!op->pos.file || strcmp(op->pos.file, r->pos.file) ||
			    op->pos.line >= r->pos.line)
				continue;
			int n = dalic_eager_find_node(s->e, op->inst);
			if (n >= 0 && s->pos_of[n] > after)
				after = s->pos_of[n];
		}
		s->print_after[p] = after;
	}
	return DALIC_OK;
}

static void prints_emit(dalic_debug_t *s, const char *text)
{
	if (s->print_fn) {
		s->print_fn(s->print_user, text);
	} else {
		fputs(text, stdout);
		fflush(stdout);
	}
}

static char *prints_render(dalic_debug_t *s, const dalic_debug_print_t *r)
{
	dalic_debug_sb_t out = {0};
	dalic_debug_sb_add(&out, r->text ? r->text : "");
	for (int k = 0; k < r->num_nodes; k++) {
		if (out.n)
			dalic_debug_sb_add(&out, " ");
		const dalic_edge_t *e = dalic_debug_find_edge(s, r->nodes[k]);
		const dalic_batch_t *b = e ? dalic_debug_edge_batch(s, e) : NULL;
		char *repr = NULL;
		if (!b || dalic_debug_format_batch(b, r->get ? NULL : r->nodes[k], &repr))
			dalic_debug_sb_printf(&out, "<%s: %s>", r->nodes[k], dalic_last_error());
		else
			dalic_debug_sb_add(&out, repr);
		free(repr);
	}
	dalic_debug_sb_add(&out, "\n");
	return dalic_debug_sb_take(&out);
}

/* A print the front end evaluates itself: it asks for the batches and for debug mode's text
 * of the nodes it prints. */
static const dalic_batch_t *prints_env_batch(void *ctx, const char *node)
{
	dalic_debug_t *s = ctx;
	const dalic_edge_t *e = dalic_debug_find_edge(s, node);
	return e ? dalic_debug_edge_batch(s, e) : NULL;
}

static char *prints_env_format(void *ctx, const dalic_batch_t *b, const char *node)
{
	char *repr = NULL;
	return dalic_debug_format_batch(b, node, &repr) ? NULL : repr;
}

static char *prints_env_format_sample(void *ctx, const dalic_batch_t *b, int i)
{
	char *repr = NULL;
	return dalic_debug_format_tensor(b, i, &repr) ? NULL : repr;
}

/* A print the script renders: an error in it is the iteration's error, as in DALI. */
static int prints_render_runtime(dalic_debug_t *s, const dalic_debug_print_t *r, char **text)
{
	const dalic_graphdef_t *def = s->def;
	if (!def->runtime)
		return dalic_fail(DALIC_EINVAL, "%s:%d: this print needs the script that defined it",
		                  r->pos.file ? r->pos.file : "?", r->pos.line);
	dalic_print_env_t env = {.ctx = s,
	                         .batch = prints_env_batch,
	                         .format = prints_env_format,
	                         .format_sample = prints_env_format_sample};
	return def->runtime_cls->render_print(def->runtime, r->eval, &env, text);
}

int dalic_debug_prints_fire(dalic_debug_t *s)
{
	const dalic_graphdef_t *def = s->def;
	while (s->next_print < def->num_prints && s->pos > s->print_after[s->next_print]) {
		const dalic_debug_print_t *r = &def->prints[s->next_print++];
		if (s->prints_muted)
			continue;
		char *text = NULL;
		if (r->eval >= 0)
			DALIC_TRY(prints_render_runtime(s, r, &text));
		else
			text = prints_render(s, r);
		if (text)
			prints_emit(s, text);
		free(text);
	}
	return DALIC_OK;
}
