/*
 * The file system as pipeline modules use it (docs/scripts.md): a pipeline script reads
 * files, never writes them. pyio.c: open() for reading (text or binary: read, readline,
 * readlines, iteration, `with`), the bytes type, and the refusal of writing modes and of
 * exec / eval / compile; pyio_os.c: os / os.path functions that look at the file system
 * (exists, isdir, listdir, walk, splitext, expanduser...), glob, and the refusal of
 * everything that changes the system (os.makedirs, os.remove, os.system, subprocess, socket,
 * shutil...); pyio_json.c: json.load / json.loads. A refusal is an error at the call that
 * stops the load, display code or not.
 */
#ifndef DALIC_FRONTEND_SCRIPT_PY_PYIO_H
#define DALIC_FRONTEND_SCRIPT_PY_PYIO_H

#include "frontend/script/py/pymod.h"

/* Largest file a script may read in one piece. */
#define PYIO_MAX_FILE ((size_t)256 << 20)

typedef struct pyio_bytes {
	const unsigned char *data;
	size_t len;
} pyio_bytes_t;

extern const pytype_t dalic_pyio_bytes_type, dalic_pyio_file_type;

static inline pyio_bytes_t *dalic_pyio_bytes(const pyval_t *v)
{
	return dalic_pyval_is(v, &dalic_pyio_bytes_type) ? v->host.data : NULL;
}

/* Registers open, the refusals, and the modules glob, json and the refused ones; adds the
 * file-system functions to os / os.path (called by pylib.c when it builds them). */
int dalic_pyio_open(pyinterp_t *I);
int dalic_pyio_extend_os(pyinterp_t *I, pyval_t *os, pyval_t *path);

/* A new bytes value (copies). NULL when out of memory. */
pyval_t *dalic_pyio_new_bytes(pyinterp_t *I, const void *data, size_t len);
/* Reads a whole file into the arena (NUL-terminated past len); errors are Python's
 * (FileNotFoundError, IsADirectoryError...) located at `at`. */
int dalic_pyio_read_file(pyinterp_t *I, const pynode_t *at, const char *path, unsigned char **buf,
                         size_t *len);
/* The path argument of a file function: a str (or an opaque value: *out NULL). */
int dalic_pyio_path_arg(pyinterp_t *I, const pynode_t *at, const char *f, pyval_t *v,
                        const char **out);
/* The refusal error: `what` is refused because a pipeline script only reads. */
int dalic_pyio_refuse(pyinterp_t *I, const pynode_t *at, const char *what, const char *why);

/* json (pyio_json.c): the module's opener. */
int dalic_pyio_open_json(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
/* glob (pyio_os.c): the module's opener. */
int dalic_pyio_open_glob(pyinterp_t *I, const pynode_t *at, const char *name, pyval_t **out);
/* Registers subprocess, socket, shutil... as modules whose every call is refused. */
int dalic_pyio_open_refused_modules(pyinterp_t *I);

#endif
