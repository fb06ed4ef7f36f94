/*
 * open() for reading and the bytes type (see pyio.h). A file is read whole when it is opened
 * (at most PYIO_MAX_FILE bytes) and then served from the arena, so a script sees a snapshot
 * and no descriptor stays open. Modes that write ('w', 'a', 'x', '+') and exec / eval /
 * compile are refused: the error stops the load even in display code.
 */
#include "frontend/script/py/pyio.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int dalic_pyio_refuse(pyinterp_t *I, const pynode_t *at, const char *what, const char *why)
{
	I->fatal = true;
	I->refused = true;
	return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
	                          "%s is refused: %s (dalic runs pipeline scripts read-only, see "
	                          "docs/scripts.md)",
	                          what, why);
}

int dalic_pyio_path_arg(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t *v,
                        const char **out)
{
	*out = NULL;
	if (v->kind == PV_OPAQUE)
		return DALIC_OK;
	if (v->kind != PV_STR)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: %s: path should be string, not %s", f,
		                          dalic_pyval_type_name(v));
	if (memchr(v->str.s, 0, v->str.len))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: %s: embedded null byte",
		                          f);
	*out = v->str.s;
	return DALIC_OK;
}

static int pyio_os_error(pyinterp_t *I, const pynode_t *at, int err, const char *path)
{
	const char *cls = err == ENOENT    ? "FileNotFoundError"
	                  : err == EISDIR  ? "IsADirectoryError"
	                  : err == ENOTDIR ? "NotADirectoryError"
	                  : err == EACCES  ? "PermissionError"
	                                   : "OSError";
	return dalic_pyeval_error(I, at, DALIC_EIO, "%s: [Errno %d] %s: '%s'", cls, err,
	                          strerror(err), path);
}

int dalic_pyio_read_file(pyinterp_t *I, const pynode_t *at, const char *path, unsigned char **buf,
                         size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return pyio_os_error(I, at, errno, path);
	struct stat st;
	if (fstat(fileno(f), &st)) {
		int err = errno;
		fclose(f);
		return pyio_os_error(I, at, err, path);
	}
	if (S_ISDIR(st.st_mode)) {
		fclose(f);
		return pyio_os_error(I, at, EISDIR, path);
	}
	/* regular files by their size; pipes and devices up to the cap */
	size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size : PYIO_MAX_FILE;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > PYIO_MAX_FILE) {
		fclose(f);
		return dalic_pyeval_limit(I, at, "'%s' is larger than %zu MiB", path,
		                          PYIO_MAX_FILE >> 20);
	}
	unsigned char *b = dalic_pyarena_alloc_raw(I->a, cap + 1);
	if (!b) {
		fclose(f);
		return dalic_pyeval_oom(I, at);
	}
	size_t n = fread(b, 1, cap, f);
	bool failed = ferror(f);
	fclose(f);
	if (failed)
		return pyio_os_error(I, at, EIO, path);
	b[n] = 0;
	*buf = b;
	*len = n;
	return DALIC_OK;
}

/* ---- bytes ---------------------------------------------------------------------------- */

pyval_t *dalic_pyio_new_bytes(pyinterp_t *I, const void *data, size_t len)
{
	pyio_bytes_t *b = dalic_pyarena_alloc(I->a, sizeof *b);
	unsigned char *copy = dalic_pyarena_alloc_raw(I->a, len + 1);
	if (!b || !copy)
		return NULL;
	if (len)
		memcpy(copy, data, len);
	b->data = copy;
	b->len = len;
	return dalic_pyval_host(I->a, &dalic_pyio_bytes_type, b);
}

static void pyio_bytes_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	pyio_bytes_t *x = dalic_pyio_bytes(v);
	dalic_pybuf_puts(b, "b'");
	for (size_t i = 0; i < x->len; i++) {
		unsigned char c = x->data[i];
		if (c == '\'' || c == '\\')
			dalic_pybuf_printf(b, "\\%c", c);
		else if (c == '\n')
			dalic_pybuf_puts(b, "\\n");
		else if (c == '\t')
			dalic_pybuf_puts(b, "\\t");
		else if (c == '\r')
			dalic_pybuf_puts(b, "\\r");
		else if (c < 32 || c >= 127)
			dalic_pybuf_printf(b, "\\x%02x", c);
		else
			dalic_pybuf_put(b, (const char *)&c, 1);
	}
	dalic_pybuf_puts(b, "'");
}

static bool pyio_bytes_equal(const pyval_t *x, const pyval_t *y)
{
	pyio_bytes_t *a = dalic_pyio_bytes(x), *b = dalic_pyio_bytes(y);
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

static uint64_t pyio_bytes_hash(const pyval_t *v)
{
	pyio_bytes_t *x = dalic_pyio_bytes(v);
	return dalic_pyval_hash_str((const char *)x->data, x->len);
}

static int pyio_bytes_len(pyinterp_t *I, const pynode_t *at, pyval_t *v, int64_t *out)
{
	*out = (int64_t)dalic_pyio_bytes(v)->len;
	return DALIC_OK;
}

static int pyio_bytes_getitem(pyinterp_t *I, const pynode_t *at, pyval_t *v, pyval_t *idx,
                              pyval_t **out)
{
	pyio_bytes_t *x = dalic_pyio_bytes(v);
	int64_t i;
	if (dalic_pyval_as_int(idx, &i)) {
		if (i < 0)
			i += (int64_t)x->len;
		if (i < 0 || i >= (int64_t)x->len)
			return dalic_pyeval_error(I, at, DALIC_EINVAL,
			                          "IndexError: index out of range");
		PYEVAL_RET(dalic_pyval_int(I->a, x->data[i]));
	}
	if (idx->kind == PV_SLICE) {
		/* a slice of the str with the same bytes gives the same bounds */
		pyval_t s = {.kind = PV_STR, .str = {(const char *)x->data, x->len}}, *sub;
		DALIC_TRY(dalic_pyeval_getitem(I, at, &s, idx, &sub));
		PYEVAL_RET(dalic_pyio_new_bytes(I, sub->str.s, sub->str.len));
	}
	return dalic_pyeval_error(I, at, DALIC_EINVAL,
	                          "TypeError: byte indices must be integers or slices, not %s",
	                          dalic_pyval_type_name(idx));
}

static int pyio_bytes_decode(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                             const pyargs_t *args, pyval_t **out)
{
	pyio_bytes_t *x = dalic_pyio_bytes(self);
	PYEVAL_RET(dalic_pyval_str(I->a, (const char *)x->data, x->len));
}

static int pyio_bytes_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                              pyval_t **out)
{
	*out = NULL;
	if (!strcmp(name, "decode"))
		PYEVAL_RET(dalic_pybi_make(I, name, pyio_bytes_decode, v, NULL));
	return DALIC_OK;
}

const pytype_t dalic_pyio_bytes_type = {
    .name = "bytes",
    .format = pyio_bytes_format,
    .equal = pyio_bytes_equal,
    .hash = pyio_bytes_hash,
    .getattr = pyio_bytes_getattr,
    .getitem = pyio_bytes_getitem,
    .len = pyio_bytes_len,
};

/* ---- files ---------------------------------------------------------------------------- */

typedef struct pyio_file {
	const char *name;
	const unsigned char *data;
	size_t len, pos;
	bool binary, closed;
} pyio_file_t;

static pyio_file_t *pyio_file(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pyio_file_type) ? v->host.data : NULL;
}

static int pyio_file_open_check(pyinterp_t *I, const pynode_t *at, pyio_file_t *f)
{
	if (f->closed)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "ValueError: I/O operation on closed file.");
	return DALIC_OK;
}

static pyval_t *pyio_file_chunk(pyinterp_t *I, pyio_file_t *f, size_t n)
{
	pyval_t *r = f->binary ? dalic_pyio_new_bytes(I, f->data + f->pos, n)
	                       : dalic_pyval_str(I->a, (const char *)f->data + f->pos, n);
	f->pos += n;
	return r;
}

static int pyio_f_read(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	pyio_file_t *f = pyio_file(self);
	DALIC_TRY(dalic_pybi_nargs(I, at, "read", args, 0, 1));
	DALIC_TRY(pyio_file_open_check(I, at, f));
	int64_t n = -1;
	if (args->npos && args->pos[0]->kind != PV_NONE && !dalic_pyval_as_int(args->pos[0], &n))
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: read() argument must be an integer");
	size_t left = f->len - f->pos;
	PYEVAL_RET(pyio_file_chunk(I, f, n < 0 || (uint64_t)n > left ? left : (size_t)n));
}

static size_t pyio_line_len(const pyio_file_t *f)
{
	const unsigned char *nl = memchr(f->data + f->pos, '\n', f->len - f->pos);
	return nl ? (size_t)(nl - (f->data + f->pos)) + 1 : f->len - f->pos;
}

static int pyio_f_readline(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	pyio_file_t *f = pyio_file(self);
	DALIC_TRY(pyio_file_open_check(I, at, f));
	PYEVAL_RET(pyio_file_chunk(I, f, pyio_line_len(f)));
}

static int pyio_file_items(pyinterp_t *I, const pynode_t *at, pyval_t *self, pyval_t ***items,
                           int *n)
{
	pyio_file_t *f = pyio_file(self);
	DALIC_TRY(pyio_file_open_check(I, at, f));
	pyval_t *l = dalic_pyval_list(I->a, 16);
	if (!l)
		return dalic_pyeval_oom(I, at);
	while (f->pos < f->len) {
		if (l->list->n >= PY_MAX_LOOP_ITERATIONS)
			return dalic_pyeval_limit(I, at, "a file of more than %d lines",
			                          PY_MAX_LOOP_ITERATIONS);
		pyval_t *line = pyio_file_chunk(I, f, pyio_line_len(f));
		if (!line || dalic_pyval_list_append(I->a, l, line))
			return dalic_pyeval_oom(I, at);
	}
	*items = l->list->items;
	*n = l->list->n;
	return DALIC_OK;
}

static int pyio_f_readlines(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                            const pyargs_t *args, pyval_t **out)
{
	pyval_t **items;
	int n;
	DALIC_TRY(pyio_file_items(I, at, self, &items, &n));
	pyval_t *l = dalic_pyval_list(I->a, n + 1);
	for (int i = 0; l && i < n; i++)
		if (dalic_pyval_list_append(I->a, l, items[i]))
			return dalic_pyeval_oom(I, at);
	PYEVAL_RET(l);
}

static int pyio_f_close(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	pyio_file(self)->closed = true;
	PYEVAL_RET(dalic_pyval_none());
}

static int pyio_f_enter(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	PYEVAL_RET(self);
}

static int pyio_f_exit(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	pyio_file(self)->closed = true;
	PYEVAL_RET(dalic_pyval_false());
}

static int pyio_f_write(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	return dalic_pyio_refuse(I, at, "writing to a file", "a pipeline script reads files, never "
	                                                     "writes them");
}

static int pyio_file_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                             pyval_t **out)
{
	static const pyreg_t methods[] = {
	    {"read", pyio_f_read},       {"readline", pyio_f_readline},
	    {"readlines", pyio_f_readlines}, {"close", pyio_f_close},
	    {"__enter__", pyio_f_enter}, {"__exit__", pyio_f_exit},
	    {"write", pyio_f_write},     {"writelines", pyio_f_write},
	    {NULL, NULL},
	};
	pyio_file_t *f = pyio_file(v);
	*out = NULL;
	if (!strcmp(name, "name"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, f->name));
	if (!strcmp(name, "closed"))
		PYEVAL_RET(dalic_pyval_bool(f->closed));
	if (!strcmp(name, "mode"))
		PYEVAL_RET(dalic_pyval_cstr(I->a, f->binary ? "rb" : "r"));
	for (const pyreg_t *r = methods; r->name; r++)
		if (!strcmp(r->name, name))
			PYEVAL_RET(dalic_pybi_make(I, name, r->fn, v, NULL));
	return DALIC_OK;
}

static void pyio_file_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	pyio_file_t *f = pyio_file(v);
	dalic_pybuf_printf(b, "<_io.%s name='%s' mode='%s'>",
	                   f->binary ? "BufferedReader" : "TextIOWrapper", f->name,
	                   f->binary ? "rb" : "r");
}

const pytype_t dalic_pyio_file_type = {
    .name = "_io.TextIOWrapper",
    .format = pyio_file_format,
    .getattr = pyio_file_getattr,
    .items = pyio_file_items,
};

/* open(file, mode='r', buffering=-1, encoding=None, ...) */
static int pyio_open_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	static const char *const names[] = {"file", "mode", "buffering", "encoding", "errors",
	                                    "newline"};
	pyval_t *v[6];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "open", args, names, 1, 6, v));
	const char *mode = "r";
	if (v[1] && v[1]->kind == PV_STR)
		mode = v[1]->str.s;
	else if (v[1] && v[1]->kind != PV_OPAQUE)
		return dalic_pyeval_error(I, at, DALIC_EINVAL,
		                          "TypeError: open() argument 'mode' must be str");
	if (strpbrk(mode, "wax+"))
		return dalic_pyio_refuse(I, at, "open() for writing",
		                         "a pipeline script reads files, never writes them");
	if (strspn(mode, "rbt") != strlen(mode))
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "ValueError: invalid mode: '%s'",
		                          mode);
	const char *path;
	DALIC_TRY(dalic_pyio_path_arg(I, at, "open", v[0], &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "open", out);
	pyio_file_t *f = dalic_pyarena_alloc(I->a, sizeof *f);
	if (!f)
		return dalic_pyeval_oom(I, at);
	unsigned char *data;
	DALIC_TRY(dalic_pyio_read_file(I, at, path, &data, &f->len));
	f->data = data;
	f->name = path;
	f->binary = strchr(mode, 'b') != NULL;
	PYEVAL_RET(dalic_pyval_host(I->a, &dalic_pyio_file_type, f));
}

static int pyio_exec_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	return dalic_pyio_refuse(I, at, "exec(), eval(), compile() and __import__()",
	                         "a pipeline script runs only its own code");
}

int dalic_pyio_open(pyinterp_t *I)
{
	static const pyreg_t fns[] = {{"open", pyio_open_fn},
	                              {"exec", pyio_exec_fn},
	                              {"eval", pyio_exec_fn},
	                              {"compile", pyio_exec_fn},
	                              {"__import__", pyio_exec_fn},
	                              {NULL, NULL}};
	static const pymodreg_t modules[] = {
	    {"glob", dalic_pyio_open_glob},
	    {"json", dalic_pyio_open_json},
	    {NULL, NULL},
	};
	DALIC_TRY(dalic_pybi_register(I, I->builtins, fns, false));
	DALIC_TRY(dalic_pyio_open_refused_modules(I));
	return dalic_pymod_preload(I, modules);
}
