/*
 * Helpers for the pipeline-script tests: write a script to a temporary .py file, load it
 * through dalic_script_load, and read the graph definition back compactly:
 *
 *     dalic_graphdef_t *g = ts_load("...python...", NULL);
 *     cr_expect_str_eq(ts_ops(g), "random__CoinFlip:__CoinFlip_0 ArithmeticGenericOp:...");
 *     cr_expect_str_eq(ts_arg(g, 1, "expression_desc"), "'add(&0 $0:int32)'");
 *
 * Errors come back with the temporary path replaced by "SCRIPT", so a test can compare the
 * whole located message ("SCRIPT:3:5: ...").
 */
#ifndef DALIC_TESTS_UNIT_TEST_SCRIPT_UTIL_H
#define DALIC_TESTS_UNIT_TEST_SCRIPT_UTIL_H

#include <criterion/criterion.h>

#include "engine/graphdef.h"
#include "frontend/script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char ts_path_buf[64];
static char ts_text_buf[8192];

/* Writes `text` to a new temporary .py file; returns its path (valid until the next call). */
static inline const char *ts_write(const char *text)
{
	snprintf(ts_path_buf, sizeof ts_path_buf, "/tmp/dalic_script_XXXXXX.py");
	int fd = mkstemps(ts_path_buf, 3);
	cr_assert(fd >= 0, "cannot create a temporary script");
	size_t n = strlen(text);
	cr_assert_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
	return ts_path_buf;
}

/* Loads the script (pipeline `name`, NULL = first), asserting success. */
static inline dalic_graphdef_t *ts_load(const char *text, const char *name)
{
	const char *path = ts_write(text);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, name, &g);
	unlink(path);
	cr_assert_eq(rc, DALIC_OK, "load failed: %s", dalic_last_error());
	cr_assert_not_null(g);
	return g;
}

/* Loads the script expecting status `code`; returns the message with the path replaced by
 * "SCRIPT" (valid until the next call). */
static inline const char *ts_error(const char *text, int code)
{
	const char *path = ts_write(text);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	unlink(path);
	dalic_graphdef_free(g);
	cr_assert_eq(rc, code, "expected %s, got %s: %s", dalic_strerror(code), dalic_strerror(rc),
	             dalic_last_error());
	const char *msg = dalic_last_error();
	size_t plen = strlen(path), k = 0;
	for (const char *p = msg; *p && k + 8 < sizeof ts_text_buf;) {
		if (!strncmp(p, path, plen)) {
			k += (size_t)snprintf(ts_text_buf + k, sizeof ts_text_buf - k, "SCRIPT");
			p += plen;
		} else {
			ts_text_buf[k++] = *p++;
		}
	}
	ts_text_buf[k] = 0;
	return ts_text_buf;
}

/* "schema:instance" of every operator, space separated. */
static inline const char *ts_ops(const dalic_graphdef_t *g)
{
	size_t k = 0;
	ts_text_buf[0] = 0;
	for (int i = 0; i < g->num_ops; i++)
		k += (size_t)snprintf(ts_text_buf + k, sizeof ts_text_buf - k, "%s%s:%s",
		                      i ? " " : "", g->ops[i]->schema->name, g->ops[i]->inst);
	return ts_text_buf;
}

/* Inputs of operator i: "node/device" for regular inputs, "arg=node" for argument inputs. */
static inline const char *ts_inputs(const dalic_graphdef_t *g, int i)
{
	cr_assert_lt(i, g->num_ops);
	const dalic_opdef_t *op = g->ops[i];
	size_t k = 0;
	ts_text_buf[0] = 0;
	for (int j = 0; j < op->num_inputs; j++) {
		const dalic_io_t *io = &op->inputs[j];
		if (io->is_arg)
			k += (size_t)snprintf(ts_text_buf + k, sizeof ts_text_buf - k, "%s%s=%s",
			                      j ? " " : "", io->arg_name, io->name);
		else
			k +=
			    (size_t)snprintf(ts_text_buf + k, sizeof ts_text_buf - k, "%s%s/%s",
			                     j ? " " : "", io->name, io->device ? io->device : "-");
	}
	return ts_text_buf;
}

/* Argument `name` of operator i as Python literal text, "<unset>" when not given. */
static inline const char *ts_arg(const dalic_graphdef_t *g, int i, const char *name)
{
	cr_assert_lt(i, g->num_ops);
	const dalic_value_t *v = dalic_graphdef_op_arg(g->ops[i], name);
	if (!v)
		return "<unset>";
	dalic_value_format(v, ts_text_buf, sizeof ts_text_buf);
	return ts_text_buf;
}

/* Pipeline outputs: "node/device" space separated. */
static inline const char *ts_outputs(const dalic_graphdef_t *g)
{
	size_t k = 0;
	ts_text_buf[0] = 0;
	for (int i = 0; i < g->num_outputs; i++)
		k += (size_t)snprintf(ts_text_buf + k, sizeof ts_text_buf - k, "%s%s/%s",
		                      i ? " " : "", g->outputs[i].name,
		                      g->outputs[i].device ? g->outputs[i].device : "-");
	return ts_text_buf;
}

#endif
