/* Shared helpers of the pipeline-script tests (see tests/testlib/script.h). */
#include "tests/testlib/script.h"

#include <stdio.h>
#include <unistd.h>

static char tl_script_text[8192];

dalic_graphdef_t *tl_script_load(const char *text, const char *name)
{
	const char *path = tl_write_temp("script", ".py", text);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, name, &g);
	unlink(path);
	ASSERT_OK(rc, "dalic_script_load");
	cr_assert_not_null(g);
	return g;
}

const char *tl_script_error(const char *text, int code)
{
	const char *path = tl_write_temp("script", ".py", text);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	unlink(path);
	dalic_graphdef_free(g);
	ASSERT_STATUS(rc, code, "dalic_script_load");
	const char *msg = dalic_last_error();
	size_t plen = strlen(path), k = 0;
	for (const char *p = msg; *p && k + 8 < sizeof tl_script_text;) {
		if (!strncmp(p, path, plen)) {
			k += (size_t)snprintf(tl_script_text + k, sizeof tl_script_text - k,
			                      "SCRIPT");
			p += plen;
		} else {
			tl_script_text[k++] = *p++;
		}
	}
	tl_script_text[k] = 0;
	return tl_script_text;
}

const char *tl_def_ops(const dalic_graphdef_t *g)
{
	size_t k = 0;
	tl_script_text[0] = 0;
	/* a graph longer than the buffer is cut: a test compares its beginning */
	for (int i = 0; i < g->num_ops && k < sizeof tl_script_text; i++)
		k += (size_t)snprintf(tl_script_text + k, sizeof tl_script_text - k, "%s%s:%s",
		                      i ? " " : "", g->ops[i]->schema->name, g->ops[i]->inst);
	return tl_script_text;
}

const char *tl_def_inputs(const dalic_graphdef_t *g, int i)
{
	cr_assert_lt(i, g->num_ops);
	const dalic_opdef_t *op = g->ops[i];
	size_t k = 0;
	tl_script_text[0] = 0;
	for (int j = 0; j < op->num_inputs; j++) {
		const dalic_io_t *io = &op->inputs[j];
		if (io->is_arg)
			k += (size_t)snprintf(tl_script_text + k, sizeof tl_script_text - k,
			                      "%s%s=%s", j ? " " : "", io->arg_name, io->name);
		else
			k += (size_t)snprintf(tl_script_text + k, sizeof tl_script_text - k,
			                      "%s%s/%s", j ? " " : "", io->name,
			                      io->device ? io->device : "-");
	}
	return tl_script_text;
}

const char *tl_def_arg(const dalic_graphdef_t *g, int i, const char *name)
{
	cr_assert_lt(i, g->num_ops);
	const dalic_value_t *v = dalic_graphdef_op_arg(g->ops[i], name);
	if (!v)
		return "<unset>";
	dalic_value_format(v, tl_script_text, sizeof tl_script_text);
	return tl_script_text;
}

const char *tl_def_outputs(const dalic_graphdef_t *g)
{
	size_t k = 0;
	tl_script_text[0] = 0;
	for (int i = 0; i < g->num_outputs; i++)
		k += (size_t)snprintf(tl_script_text + k, sizeof tl_script_text - k, "%s%s/%s",
		                      i ? " " : "", g->outputs[i].name,
		                      g->outputs[i].device ? g->outputs[i].device : "-");
	return tl_script_text;
}
