/*
 * `dalic tune --apply`: the chosen setting written into a copy of the pipeline script, as
 * arguments of the call that creates the pipeline from its @pipeline_def function
 * (stats/tune.h). The script is edited as text — only that call's argument list changes,
 * comments and layout stay — and the caller checks the result by loading it. A serialized
 * pipeline is written anew from a clone with the setting.
 */
#include "stats/tune_trial.h"

#include "engine/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Past a string literal starting at s[i] (quote char), triple quotes included. */
static size_t tune_skip_string(const char *s, size_t i)
{
	char q = s[i];
	bool triple = s[i + 1] == q && s[i + 2] == q;
	i += triple ? 3 : 1;
	while (s[i]) {
		if (s[i] == '\\' && s[i + 1]) {
			i += 2;
			continue;
		}
		if (s[i] == q && (!triple || (s[i + 1] == q && s[i + 2] == q)))
			return i + (triple ? 3 : 1);
		if (!triple && s[i] == '\n')
			return i;
		i++;
	}
	return i;
}

static bool tune_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Is s[i..] the word `w`, not part of a longer identifier or attribute? */
static bool tune_word_at(const char *s, size_t i, const char *w)
{
	size_t n = strlen(w);
	return !strncmp(s + i, w, n) && !tune_ident_char(s[i + n]) &&
	       (i == 0 || (!tune_ident_char(s[i - 1]) && s[i - 1] != '.'));
}

/* The name of the first function decorated with @pipeline_def (any module path). */
static int tune_find_def(const char *s, char *name, size_t n)
{
	const char *d = s;
	while ((d = strstr(d, "pipeline_def"))) {
		const char *line = d;
		while (line > s && line[-1] != '\n')
			line--;
		while (*line == ' ' || *line == '\t')
			line++;
		d += 12;
		if (*line != '@')
			continue;
		const char *f = strstr(d, "def ");
		if (!f)
			break;
		f += 4;
		while (*f == ' ')
			f++;
		size_t len = 0;
		while (tune_ident_char(f[len]))
			len++;
		if (!len || len >= n)
			continue;
		memcpy(name, f, len);
		name[len] = 0;
		return DALIC_OK;
	}
	return DALIC_EUNSUPPORTED;
}

/* Offset of the '(' of the first call `name(` outside strings and comments, not its def. */
static long tune_find_call(const char *s, const char *name)
{
	for (size_t i = 0; s[i];) {
		if (s[i] == '#') {
			while (s[i] && s[i] != '\n')
				i++;
		} else if (s[i] == '"' || s[i] == '\'') {
			i = tune_skip_string(s, i);
		} else if (tune_word_at(s, i, name)) {
			size_t j = i + strlen(name);
			while (s[j] == ' ')
				j++;
			size_t k = i;
			while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
				k--;
			bool is_def = k >= 3 && !strncmp(s + k - 3, "def", 3);
			if (s[j] == '(' && !is_def)
				return (long)j;
			i += strlen(name);
		} else {
			i++;
		}
	}
	return -1;
}

/* The top-level arguments of the call whose '(' is at `open`: [start, end) of each, and
 * the offset of the closing ')'. */
typedef struct tune_args {
	size_t start[64], end[64];
	int n;
	size_t close;
} tune_args_t;

static int tune_split_args(const char *s, size_t open, tune_args_t *a)
{
	int depth = 0;
	a->n = 0;
	size_t begin = open + 1;
	for (size_t i = open + 1; s[i]; i++) {
		char c = s[i];
		if (c == '"' || c == '\'') {
			i = tune_skip_string(s, i) - 1;
		} else if (c == '#') {
			while (s[i + 1] && s[i + 1] != '\n')
				i++;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			depth--;
		} else if ((c == ',' || c == ')') && depth == 0) {
			size_t b = begin, e = i;
			while (b < e && isspace((unsigned char)s[b]))
				b++;
			if (b < e && a->n < 64) {
				a->start[a->n] = b;
				a->end[a->n++] = e;
			}
			begin = i + 1;
			if (c == ')') {
				a->close = i;
				return DALIC_OK;
			}
		}
	}
	return DALIC_EINVAL;
}

typedef struct tune_edit {
	const char *key;
	char value[96];
} tune_edit_t;

/* The pipeline_def arguments that differ between the baseline and the setting. */
static int tune_edits(const dalic_pipeline_params_t *b, const dalic_pipeline_params_t *p,
                      tune_edit_t *e)
{
	int n = 0;
	if (p->num_threads != b->num_threads) {
		e[n].key = "num_threads";
		snprintf(e[n++].value, sizeof e->value, "%d", p->num_threads);
	}
	if (p->separated_queues != b->separated_queues || p->prefetch_cpu != b->prefetch_cpu ||
	    p->prefetch_gpu != b->prefetch_gpu) {
		e[n].key = "prefetch_queue_depth";
		if (p->separated_queues)
			snprintf(e[n++].value, sizeof e->value, "{\"cpu_size\": %d, \"gpu_size\": %d}",
			         p->prefetch_cpu, p->prefetch_gpu);
		else
			snprintf(e[n++].value, sizeof e->value, "%d", p->prefetch_cpu);
	}
	if (p->exec_async != b->exec_async) {
		e[n].key = "exec_async";
		snprintf(e[n++].value, sizeof e->value, "%s", p->exec_async ? "True" : "False");
	}
	if (p->exec_pipelined != b->exec_pipelined) {
		e[n].key = "exec_pipelined";
		snprintf(e[n++].value, sizeof e->value, "%s", p->exec_pipelined ? "True" : "False");
	}
	if (p->bytes_per_sample != b->bytes_per_sample) {
		e[n].key = "bytes_per_sample";
		snprintf(e[n++].value, sizeof e->value, "%lld", (long long)p->bytes_per_sample);
	}
	return n;
}

/* The argument of `a` that is `key=...`, or -1. */
static int tune_find_kw(const char *s, const tune_args_t *a, const char *key)
{
	size_t n = strlen(key);
	for (int i = 0; i < a->n; i++) {
		size_t j = a->start[i] + n;
		if (strncmp(s + a->start[i], key, n) || tune_ident_char(s[j]))
			continue;
		while (s[j] == ' ')
			j++;
		if (s[j] == '=' && s[j + 1] != '=')
			return i;
	}
	return -1;
}

static int tune_buf_put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*len + n + 1) * 2;
		char *b = realloc(*buf, c);
		if (!b)
			return dalic_fail(DALIC_ENOMEM, "dalic tune --apply: out of memory");
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
	return DALIC_OK;
}

/* Copies s with the edits applied to the call's arguments: a keyword given is replaced in
 * place, a new one is added before the ')'. */
static int tune_rewrite(const char *s, const tune_args_t *a, const tune_edit_t *e, int ne,
                        char **out)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, at = 0;
	int rc = DALIC_OK;
	bool done[8] = {false};
	for (int i = 0; !rc && i < a->n; i++) {
		for (int k = 0; k < ne; k++) {
			if (done[k] || tune_find_kw(s, a, e[k].key) != i)
				continue;
			char arg[160];
			int m = snprintf(arg, sizeof arg, "%s=%s", e[k].key, e[k].value);
			rc = tune_buf_put(&buf, &len, &cap, s + at, a->start[i] - at);
			if (!rc)
				rc = tune_buf_put(&buf, &len, &cap, arg, (size_t)m);
			at = a->end[i];
			done[k] = true;
		}
	}
	size_t last = a->n ? a->end[a->n - 1] : a->close;
	if (!rc)
		rc = tune_buf_put(&buf, &len, &cap, s + at, last - at);
	at = last;
	for (int k = 0; !rc && k < ne; k++) {
		if (done[k])
			continue;
		char arg[170];
		int m = snprintf(arg, sizeof arg, "%s%s=%s", a->n || k ? ", " : "", e[k].key,
		                 e[k].value);
		rc = tune_buf_put(&buf, &len, &cap, arg, (size_t)m);
	}
	if (!rc)
		rc = tune_buf_put(&buf, &len, &cap, s + at, strlen(s + at));
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	return DALIC_OK;
}

int dalic_tune_rewrite_script(const char *src, const char *path,
                              const dalic_pipeline_params_t *base,
                              const dalic_pipeline_params_t *chosen, char **out)
{
	*out = NULL;
	char name[128];
	if (tune_find_def(src, name, sizeof name))
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "%s: no @pipeline_def function to write the settings into", path);
	long open = tune_find_call(src, name);
	if (open < 0)
		return dalic_fail(DALIC_EUNSUPPORTED, "%s: no call of %s(...) creates the pipeline",
		                  path, name);
	tune_args_t a;
	if (tune_split_args(src, (size_t)open, &a))
		return dalic_fail(DALIC_EPARSE, "%s: the call of %s( has no closing parenthesis",
		                  path, name);
	tune_edit_t e[8];
	int ne = tune_edits(base, chosen, e);
	return tune_rewrite(src, &a, e, ne, out);
}

int dalic_tune_serialize(const dalic_tune_t *t, const dalic_tune_setting_t *s, void **buf,
                         size_t *len)
{
	if (s->per_op_hints)
		return dalic_fail(DALIC_EUNSUPPORTED,
		                  "a serialized pipeline cannot carry per-operator "
		                  "bytes_per_sample_hint (DALI never serializes it): paste the "
		                  "suggested hints into the script instead");
	dalic_pipeline_t *p = NULL;
	dalic_pipeline_params_t prm = s->params;
	prm.enable_memory_stats = false; /* the tuner's own switch, not the user's */
	int rc = dalic_pipeline_clone(t->def, &prm, &p);
	if (!rc)
		rc = dalic_pipeline_serialize(p, buf, len);
	dalic_pipeline_destroy(p);
	return rc;
}
