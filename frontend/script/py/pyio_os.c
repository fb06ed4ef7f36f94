/*
 * The file-system side of os and os.path, glob, and the refused modules (see pyio.h).
 * Directory listings come in the order the file system gives them, as Python's os.listdir and
 * glob return them on the same machine (scripts sort them when the order matters). glob
 * follows Python's algorithm: a pattern is split into directory and name, names beginning
 * with '.' match only patterns that do, '**' with recursive=True matches any depth.
 */
#include "frontend/script/py/pyio.h"

#include "frontend/script/py/pybi.h"
#include "frontend/script/py/pydict.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Entries one listing / glob / walk may return before the load stops. */
#define PYIO_MAX_ENTRIES 1000000

static int pyio_set(pyinterp_t *I, pyval_t *mod, const char *name, pycfn_t fn)
{
	return dalic_pymod_set(I, mod, name, dalic_pybi_make(I, name, fn, NULL, NULL));
}

static int pyio_one_path(pyinterp_t *I, const pynode_t *at, const char *f, const pyargs_t *args,
                         const char **path)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, f, args, 1, 1));
	return dalic_pyio_path_arg(I, at, f, args->pos[0], path);
}

static pyval_t *pyio_str(pyinterp_t *I, const char *s, size_t n)
{
	return dalic_pyval_str(I->a, s, n);
}

/* ---- os.path queries ------------------------------------------------------------------ */

enum { Q_EXISTS, Q_ISDIR, Q_ISFILE, Q_ISLINK, Q_LEXISTS };

static int pyio_stat_query(pyinterp_t *I, const pynode_t *at, const pyargs_t *args, int q,
                           const char *f, pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, f, args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, f, out);
	struct stat st;
	bool r;
	if (q == Q_ISLINK || q == Q_LEXISTS)
		r = !lstat(path, &st) && (q == Q_LEXISTS || S_ISLNK(st.st_mode));
	else
		r = !stat(path, &st) && (q == Q_EXISTS || (q == Q_ISDIR ? S_ISDIR(st.st_mode)
		                                                        : S_ISREG(st.st_mode)));
	PYEVAL_RET(dalic_pyval_bool(r));
}

#define PYIO_QUERY(NAME, Q)                                                                        \
	static int pyio_##NAME(pyinterp_t *I, const pynode_t *at, pyval_t *self,                   \
	                       const pyargs_t *args, pyval_t **out)                                \
	{                                                                                          \
		return pyio_stat_query(I, at, args, Q, #NAME, out);                                \
	}
PYIO_QUERY(exists, Q_EXISTS)
PYIO_QUERY(isdir, Q_ISDIR)
PYIO_QUERY(isfile, Q_ISFILE)
PYIO_QUERY(islink, Q_ISLINK)
PYIO_QUERY(lexists, Q_LEXISTS)
#undef PYIO_QUERY

static int pyio_getsize(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "getsize", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "getsize", out);
	struct stat st;
	if (stat(path, &st))
		return dalic_pyeval_error(I, at, DALIC_EIO, "FileNotFoundError: [Errno %d] %s: '%s'",
		                          errno, strerror(errno), path);
	PYEVAL_RET(dalic_pyval_int(I->a, (int64_t)st.st_size));
}

/* splitext: the last dot of the last component, not a leading one */
static int pyio_splitext(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "splitext", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "splitext", out);
	size_t n = args->pos[0]->str.len;
	const char *slash = memrchr(path, '/', n), *base = slash ? slash + 1 : path;
	const char *dot = memrchr(base, '.', n - (size_t)(base - path));
	const char *b = base;
	while (b < path + n && *b == '.')
		b++;
	size_t cut = dot && dot >= b ? (size_t)(dot - path) : n;
	pyval_t *t = dalic_pyval_tuple(I->a, 2);
	if (!t || !(t->tuple.items[0] = pyio_str(I, path, cut)) ||
	    !(t->tuple.items[1] = pyio_str(I, path + cut, n - cut)))
		return dalic_pyeval_oom(I, at);
	*out = t;
	return DALIC_OK;
}

/* split: (head, tail) with trailing slashes of head removed unless it is all slashes */
static int pyio_split(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "split", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "split", out);
	size_t n = args->pos[0]->str.len;
	const char *slash = memrchr(path, '/', n);
	size_t cut = slash ? (size_t)(slash - path) + 1 : 0, head = cut;
	bool all_slash = true;
	for (size_t i = 0; i < cut; i++)
		all_slash &= path[i] == '/';
	while (!all_slash && head > 0 && path[head - 1] == '/')
		head--;
	pyval_t *t = dalic_pyval_tuple(I->a, 2);
	if (!t || !(t->tuple.items[0] = pyio_str(I, path, head)) ||
	    !(t->tuple.items[1] = pyio_str(I, path + cut, n - cut)))
		return dalic_pyeval_oom(I, at);
	*out = t;
	return DALIC_OK;
}

static int pyio_expanduser(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                           pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "expanduser", args, &path));
	if (!path || path[0] != '~' || (path[1] && path[1] != '/'))
		PYEVAL_RET(args->pos[0]);
	const char *home = getenv("HOME");
	if (!home)
		PYEVAL_RET(args->pos[0]);
	PYEVAL_RET(dalic_pyval_cstr(I->a, dalic_pyarena_printf(I->a, "%s%s", home, path + 1)));
}

/* normpath: collapses '.', '..', repeated slashes (lexically, like Python's posixpath) */
static char *pyio_normpath(pyinterp_t *I, const char *path)
{
	size_t n = strlen(path);
	if (!n)
		return dalic_pyarena_strdup(I->a, ".");
	const char **comps = dalic_pyarena_alloc(I->a, sizeof *comps * (n + 1));
	size_t *lens = dalic_pyarena_alloc(I->a, sizeof *lens * (n + 1));
	char *out = dalic_pyarena_alloc(I->a, n + 3);
	if (!comps || !lens || !out)
		return NULL;
	int initial = path[0] == '/' ? (path[1] == '/' && path[2] != '/' ? 2 : 1) : 0, k = 0;
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		const char *e = p;
		while (*e && *e != '/')
			e++;
		size_t l = (size_t)(e - p);
		if (l == 0 || (l == 1 && p[0] == '.')) {
		} else if (l == 2 && p[0] == '.' && p[1] == '.' &&
		           ((k && !(lens[k - 1] == 2 && !strncmp(comps[k - 1], "..", 2))) ||
		            (!k && initial))) {
			if (k)
				k--;
		} else {
			comps[k] = p;
			lens[k++] = l;
		}
		p = e;
	}
	size_t o = 0;
	for (int i = 0; i < initial; i++)
		out[o++] = '/';
	for (int i = 0; i < k; i++) {
		if (i)
			out[o++] = '/';
		memcpy(out + o, comps[i], lens[i]);
		o += lens[i];
	}
	if (!o)
		out[o++] = '.';
	out[o] = 0;
	return out;
}

static int pyio_normpath_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "normpath", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "normpath", out);
	PYEVAL_RET(dalic_pyval_cstr(I->a, pyio_normpath(I, path)));
}

static int pyio_abspath(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "abspath", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "abspath", out);
	char cwd[PATH_MAX];
	if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
		return dalic_pyeval_error(I, at, DALIC_EIO, "OSError: getcwd() failed");
	const char *full = path[0] == '/' ? path : dalic_pyarena_printf(I->a, "%s/%s", cwd, path);
	PYEVAL_RET(full ? dalic_pyval_cstr(I->a, pyio_normpath(I, full)) : NULL);
}

static int pyio_realpath(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                         pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "realpath", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "realpath", out);
	char buf[PATH_MAX];
	if (realpath(path, buf))
		PYEVAL_RET(dalic_pyval_cstr(I->a, buf));
	return pyio_abspath(I, at, self, args, out);
}

static int pyio_isabs(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                      pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "isabs", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "isabs", out);
	PYEVAL_RET(dalic_pyval_bool(path[0] == '/'));
}

/* ---- listings ------------------------------------------------------------------------- */

/* Names in a directory, readdir order, without . and ..; *n = -errno on failure. */
static int pyio_list(pyinterp_t *I, const pynode_t *at, const char *dir, const char ***names,
                     int *n)
{
	DIR *d = opendir(*dir ? dir : ".");
	*names = NULL;
	*n = 0;
	if (!d) {
		*n = -errno;
		return DALIC_OK;
	}
	int cap = 16;
	const char **v = dalic_pyarena_alloc(I->a, sizeof *v * (size_t)cap);
	struct dirent *e;
	while (v && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n >= PYIO_MAX_ENTRIES) {
			closedir(d);
			return dalic_pyeval_limit(I, at, "a directory listing of more than %d entries",
			                          PYIO_MAX_ENTRIES);
		}
		if (*n == cap) {
			const char **nv = dalic_pyarena_alloc(I->a, sizeof *nv * (size_t)cap * 2);
			if (nv)
				memcpy(nv, v, sizeof *v * (size_t)cap);
			v = nv;
			cap *= 2;
		}
		if (v && !(v[(*n)++] = dalic_pyarena_strdup(I->a, e->d_name)))
			v = NULL;
	}
	closedir(d);
	if (!v)
		return dalic_pyeval_oom(I, at);
	*names = v;
	return DALIC_OK;
}

static int pyio_listdir(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	DALIC_TRY(dalic_pybi_nargs(I, at, "listdir", args, 0, 1));
	const char *path = ".";
	if (args->npos)
		DALIC_TRY(dalic_pyio_path_arg(I, at, "listdir", args->pos[0], &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "listdir", out);
	const char **names;
	int n;
	DALIC_TRY(pyio_list(I, at, path, &names, &n));
	if (n < 0)
		return dalic_pyeval_error(I, at, DALIC_EIO, "%s: [Errno %d] %s: '%s'",
		                          -n == ENOENT    ? "FileNotFoundError"
		                          : -n == ENOTDIR ? "NotADirectoryError"
		                                          : "OSError",
		                          -n, strerror(-n), path);
	pyval_t *l = dalic_pyval_list(I->a, n + 1);
	for (int i = 0; l && i < n; i++)
		if (dalic_pyval_list_append(I->a, l, dalic_pyval_cstr(I->a, names[i])))
			l = NULL;
	PYEVAL_RET(l);
}

static bool pyio_is_dir(const char *path)
{
	struct stat st;
	return !stat(*path ? path : ".", &st) && S_ISDIR(st.st_mode);
}

static const char *pyio_join(pyinterp_t *I, const char *dir, const char *name)
{
	if (!*dir)
		return name;
	size_t n = strlen(dir);
	return dalic_pyarena_printf(I->a, "%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

/* os.walk(top): [(dirpath, dirnames, filenames), ...] top-down */
static int pyio_walk_dir(pyinterp_t *I, const pynode_t *at, const char *dir, pyval_t *res,
                         int depth)
{
	const char **names;
	int n;
	DALIC_TRY(pyio_list(I, at, dir, &names, &n));
	if (n < 0 || depth > 64)
		return DALIC_OK; /* os.walk ignores unreadable directories */
	pyval_t *dirs = dalic_pyval_list(I->a, 4), *files = dalic_pyval_list(I->a, 4),
	        *t = dalic_pyval_tuple(I->a, 3);
	if (!dirs || !files || !t || !(t->tuple.items[0] = dalic_pyval_cstr(I->a, dir)))
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < n; i++) {
		const char *full = pyio_join(I, dir, names[i]);
		if (!full || dalic_pyval_list_append(I->a, pyio_is_dir(full) ? dirs : files,
		                                     dalic_pyval_cstr(I->a, names[i])))
			return dalic_pyeval_oom(I, at);
	}
	t->tuple.items[1] = dirs;
	t->tuple.items[2] = files;
	if (res->list->n >= PYIO_MAX_ENTRIES)
		return dalic_pyeval_limit(I, at, "os.walk over more than %d directories",
		                          PYIO_MAX_ENTRIES);
	if (dalic_pyval_list_append(I->a, res, t))
		return dalic_pyeval_oom(I, at);
	for (int i = 0; i < dirs->list->n; i++)
		DALIC_TRY(pyio_walk_dir(I, at, pyio_join(I, dir, dirs->list->items[i]->str.s), res,
		                        depth + 1));
	return DALIC_OK;
}

static int pyio_walk(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                     pyval_t **out)
{
	const char *top;
	if (args->npos < 1)
		return dalic_pyeval_error(I, at, DALIC_EINVAL, "TypeError: walk() needs a top");
	DALIC_TRY(dalic_pyio_path_arg(I, at, "walk", args->pos[0], &top));
	if (!top)
		return dalic_pybi_opaque_result(I, at, "walk", out);
	pyval_t *res = dalic_pyval_list(I->a, 8);
	if (!res)
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(pyio_walk_dir(I, at, top, res, 0));
	*out = res;
	return DALIC_OK;
}

static int pyio_getcwd(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                       pyval_t **out)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return dalic_pyeval_error(I, at, DALIC_EIO, "OSError: getcwd() failed");
	PYEVAL_RET(dalic_pyval_cstr(I->a, cwd));
}

static int pyio_cpu_count(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                          pyval_t **out)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	PYEVAL_RET(dalic_pyval_int(I->a, n > 0 ? n : 1));
}

/* ---- refusals ------------------------------------------------------------------------- */

static int pyio_refused_call(pyinterp_t *I, const pynode_t *at, pyval_t *self,
                             const pyargs_t *args, pyval_t **out)
{
	const char *name = self->builtin.data;
	return dalic_pyio_refuse(I, at, name,
	                         "a pipeline script reads files, never changes the file system, "
	                         "runs programs or opens connections");
}

static pyval_t *pyio_refused(pyinterp_t *I, const char *full)
{
	return dalic_pybi_make_self(I, full, pyio_refused_call, (void *)full);
}

/* A module whose every attribute is a refused call (subprocess, socket, shutil...). */
typedef struct pyio_refmod {
	const char *name;
} pyio_refmod_t;

static int pyio_refmod_getattr(pyinterp_t *I, const pynode_t *at, pyval_t *v, const char *name,
                               pyval_t **out)
{
	const char *full =
	    dalic_pyarena_printf(I->a, "%s.%s", ((pyio_refmod_t *)v->host.data)->name, name);
	PYEVAL_RET(full ? pyio_refused(I, full) : NULL);
}

static void pyio_refmod_format(pybuf_t *b, const pyval_t *v, bool repr)
{
	dalic_pybuf_printf(b, "<module '%s' (refused)>", ((pyio_refmod_t *)v->host.data)->name);
}

static const pytype_t pyio_refmod_type = {
    .name = "module",
    .format = pyio_refmod_format,
    .getattr = pyio_refmod_getattr,
};

static int pyio_open_refused(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyio_refmod_t *m = dalic_pyarena_alloc(I->a, sizeof *m);
	if (!m || !(m->name = dalic_pyarena_strdup(I->a, name)))
		return dalic_pyeval_oom(I, at);
	PYEVAL_RET(dalic_pyval_host(I->a, &pyio_refmod_type, m));
}

static const pymodreg_t pyio_refused_modules[] = {
    {"subprocess", pyio_open_refused},     {"socket", pyio_open_refused},
    {"shutil", pyio_open_refused},         {"tempfile", pyio_open_refused},
    {"requests", pyio_open_refused},       {"urllib.request", pyio_open_refused},
    {"http.client", pyio_open_refused},    {"ftplib", pyio_open_refused},
    {"smtplib", pyio_open_refused},        {"ctypes", pyio_open_refused},
    {"pickle", pyio_open_refused},         {NULL, NULL},
};

int dalic_pyio_extend_os(pyinterp_t *I, pyval_t *os, pyval_t *path)
{
	static const pyreg_t path_fns[] = {
	    {"exists", pyio_exists},         {"isdir", pyio_isdir},
	    {"isfile", pyio_isfile},         {"islink", pyio_islink},
	    {"lexists", pyio_lexists},       {"getsize", pyio_getsize},
	    {"splitext", pyio_splitext},     {"split", pyio_split},
	    {"expanduser", pyio_expanduser}, {"normpath", pyio_normpath_fn},
	    {"abspath", pyio_abspath},       {"realpath", pyio_realpath},
	    {"isabs", pyio_isabs},           {NULL, NULL},
	};
	static const pyreg_t os_fns[] = {
	    {"listdir", pyio_listdir},     {"walk", pyio_walk},
	    {"getcwd", pyio_getcwd},       {"cpu_count", pyio_cpu_count},
	    {NULL, NULL},
	};
	static const char *const refused[] = {
	    "makedirs", "mkdir",  "remove",  "unlink",   "rmdir",  "removedirs", "rename",
	    "renames",  "replace", "system", "popen",    "chdir",  "chmod",      "chown",
	    "symlink",  "link",   "putenv",  "unsetenv", "kill",   "fork",       "execv",
	    "execvp",   "execl",  "execlp",  "spawnl",   "spawnv", "truncate",   "utime",
	    "write",    "open",   "mkfifo",  "scandir",  NULL,
	};
	for (const pyreg_t *r = path_fns; r->name; r++)
		DALIC_TRY(pyio_set(I, path, r->name, r->fn));
	for (const pyreg_t *r = os_fns; r->name; r++)
		DALIC_TRY(pyio_set(I, os, r->name, r->fn));
	for (int i = 0; refused[i]; i++) {
		const char *full = dalic_pyarena_printf(I->a, "os.%s", refused[i]);
		if (!full)
			return DALIC_ENOMEM;
		DALIC_TRY(dalic_pymod_set(I, os, refused[i], pyio_refused(I, full)));
	}
	return dalic_pymod_set(I, path, "sep", dalic_pyval_cstr(I->a, "/"));
}

int dalic_pyio_open_refused_modules(pyinterp_t *I)
{
	return dalic_pymod_preload(I, pyio_refused_modules);
}

/* ---- glob ----------------------------------------------------------------------------- */

typedef struct globber {
	pyinterp_t *I;
	const pynode_t *at;
	bool recursive;
	pyval_t *out; /* list of str */
} globber_t;

static bool pyio_has_magic(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static int pyio_glob_add(globber_t *g, const char *path)
{
	if (g->out->list->n >= PYIO_MAX_ENTRIES)
		return dalic_pyeval_limit(g->I, g->at, "glob() with more than %d matches",
		                          PYIO_MAX_ENTRIES);
	pyval_t *s = dalic_pyval_cstr(g->I->a, path);
	if (!s || dalic_pyval_list_append(g->I->a, g->out, s))
		return dalic_pyeval_oom(g->I, g->at);
	return DALIC_OK;
}

/* '**': everything below dir (not hidden), directories before their contents */
static int pyio_rlist(globber_t *g, const char *dir, const char *prefix, bool dironly,
                      globber_t *acc, int depth)
{
	const char **names;
	int n;
	DALIC_TRY(pyio_list(g->I, g->at, dir, &names, &n));
	for (int i = 0; i < n && depth < 64; i++) {
		if (names[i][0] == '.')
			continue;
		const char *full = pyio_join(g->I, dir, names[i]);
		const char *rel = pyio_join(g->I, prefix, names[i]);
		if (!full || !rel)
			return dalic_pyeval_oom(g->I, g->at);
		bool isdir = pyio_is_dir(full);
		if (!dironly || isdir)
			DALIC_TRY(pyio_glob_add(acc, rel));
		if (isdir)
			DALIC_TRY(pyio_rlist(g, full, rel, dironly, acc, depth + 1));
	}
	return DALIC_OK;
}

/* Matches of `pattern` (no slash) inside dir, as names relative to dir. */
static int pyio_glob_in_dir(globber_t *g, const char *dir, const char *pattern, bool dironly,
                            globber_t *acc)
{
	if (g->recursive && !strcmp(pattern, "**")) {
		if (!dironly || pyio_is_dir(dir))
			DALIC_TRY(pyio_glob_add(acc, ""));
		return pyio_rlist(g, dir, "", dironly, acc, 0);
	}
	if (!pyio_has_magic(pattern)) {
		const char *full = pyio_join(g->I, dir, pattern);
		struct stat st;
		if (!*pattern ? pyio_is_dir(dir) : !lstat(full, &st) && (!dironly || pyio_is_dir(full)))
			DALIC_TRY(pyio_glob_add(acc, pattern));
		return DALIC_OK;
	}
	const char **names;
	int n;
	DALIC_TRY(pyio_list(g->I, g->at, dir, &names, &n));
	for (int i = 0; i < n; i++) {
		if (names[i][0] == '.' && pattern[0] != '.')
			continue;
		if (fnmatch(pattern, names[i], FNM_NOESCAPE))
			continue;
		if (dironly && !pyio_is_dir(pyio_join(g->I, dir, names[i])))
			continue;
		DALIC_TRY(pyio_glob_add(acc, names[i]));
	}
	return DALIC_OK;
}

static int pyio_iglob(globber_t *g, const char *pathname, bool dironly)
{
	const char *slash = strrchr(pathname, '/');
	size_t dlen = slash ? (size_t)(slash - pathname) : 0;
	const char *base = slash ? slash + 1 : pathname;
	char *dirname = dalic_pyarena_strndup(g->I->a, pathname, dlen);
	if (!dirname)
		return dalic_pyeval_oom(g->I, g->at);
	/* head keeps its trailing slashes stripped, except the root */
	if (slash && dlen == 0)
		dirname = "/";
	if (!pyio_has_magic(pathname)) {
		struct stat st;
		if (dironly ? pyio_is_dir(pathname) : !lstat(pathname, &st))
			return pyio_glob_add(g, pathname);
		return DALIC_OK;
	}
	globber_t dirs = *g;
	if (!(dirs.out = dalic_pyval_list(g->I->a, 4)))
		return dalic_pyeval_oom(g->I, g->at);
	if (!slash) {
		return pyio_glob_in_dir(g, "", base, dironly, g);
	}
	if (strcmp(dirname, pathname) && pyio_has_magic(dirname))
		DALIC_TRY(pyio_iglob(&dirs, dirname, true));
	else
		DALIC_TRY(pyio_glob_add(&dirs, dirname));
	for (int i = 0; i < dirs.out->list->n; i++) {
		const char *d = dirs.out->list->items[i]->str.s;
		globber_t names = *g;
		if (!(names.out = dalic_pyval_list(g->I->a, 4)))
			return dalic_pyeval_oom(g->I, g->at);
		DALIC_TRY(pyio_glob_in_dir(g, d, base, dironly, &names));
		for (int k = 0; k < names.out->list->n; k++) {
			const char *nm = names.out->list->items[k]->str.s;
			/* os.path.join(d, '') keeps the trailing slash */
			const char *full =
			    !*nm ? dalic_pyarena_printf(g->I->a, "%s%s", d,
			                                d[strlen(d) - 1] == '/' ? "" : "/")
			         : pyio_join(g->I, d, nm);
			if (!full)
				return dalic_pyeval_oom(g->I, g->at);
			DALIC_TRY(pyio_glob_add(g, full));
		}
	}
	return DALIC_OK;
}

static int pyio_glob_fn(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                        pyval_t **out)
{
	static const char *const names[] = {"pathname", "root_dir", "dir_fd", "recursive",
	                                    "include_hidden"};
	pyval_t *v[5];
	DALIC_TRY(dalic_pyeval_parse_args(I, at, "glob", args, names, 1, 5, v));
	const char *pattern;
	DALIC_TRY(dalic_pyio_path_arg(I, at, "glob", v[0], &pattern));
	if (!pattern)
		return dalic_pybi_opaque_result(I, at, "glob", out);
	if ((v[1] && v[1]->kind != PV_NONE) || (v[2] && v[2]->kind != PV_NONE) ||
	    (v[4] && v[4]->kind != PV_NONE && !(v[4]->kind == PV_BOOL && !v[4]->b)))
		return dalic_pyeval_error(I, at, DALIC_EUNSUPPORTED,
		                          "glob(): root_dir, dir_fd and include_hidden are outside "
		                          "dalic's subset");
	globber_t g = {.I = I, .at = at};
	if (v[3])
		DALIC_TRY(dalic_pyeval_truth(I, at, v[3], &g.recursive));
	if (!(g.out = dalic_pyval_list(I->a, 8)))
		return dalic_pyeval_oom(I, at);
	DALIC_TRY(pyio_iglob(&g, pattern, false));
	*out = g.out;
	return DALIC_OK;
}

static int pyio_glob_escape(pyinterp_t *I, const pynode_t *at, pyval_t *self, const pyargs_t *args,
                            pyval_t **out)
{
	const char *path;
	DALIC_TRY(pyio_one_path(I, at, "escape", args, &path));
	if (!path)
		return dalic_pybi_opaque_result(I, at, "escape", out);
	pybuf_t b = {0};
	for (const char *p = path; *p; p++) {
		if (*p == '*' || *p == '?' || *p == '[')
			dalic_pybuf_printf(&b, "[%c]", *p);
		else
			dalic_pybuf_put(&b, p, 1);
	}
	*out = b.oom ? NULL : dalic_pyval_str(I->a, b.s ? b.s : "", b.n);
	dalic_pybuf_free(&b);
	return *out ? DALIC_OK : dalic_pyeval_oom(I, at);
}

int dalic_pyio_open_glob(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out)
{
	pyval_t *m = dalic_pymod_new(I, name, false);
	if (m)
		m->mod->subset = "dalic's glob (glob, iglob, escape)";
	if (!m || pyio_set(I, m, "glob", pyio_glob_fn) || pyio_set(I, m, "iglob", pyio_glob_fn) ||
	    pyio_set(I, m, "escape", pyio_glob_escape))
		return dalic_pyeval_oom(I, at);
	*out = m;
	return DALIC_OK;
}
