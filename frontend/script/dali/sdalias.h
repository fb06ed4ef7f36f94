/*
 * Operator names as DALI 2.4's Python API resolves them: the deprecated aliases it still
 * accepts (ops.FileReader, fn.image_decoder, ops.experimental.decoders.Image...), with the
 * schema name DALI serializes for each (GetSchema(alias, follow_aliases).Name(): "readers__File"
 * for FileReader, "ImageDecoder" for ImageDecoder) and the instance names it gives
 * ("__FileReader_0"); the names it removed (ops.nvJPEGDecoder, ops.HostDecoder...); and its
 * operator namespaces (fn.readers, ops.experimental.decoders...), so that an attribute of
 * `fn` / `ops` that is none of these is an error at once, naming the operator and the line.
 */
#ifndef DALIC_FRONTEND_SCRIPT_DALI_SDALIAS_H
#define DALIC_FRONTEND_SCRIPT_DALI_SDALIAS_H

#include <stdbool.h>

typedef struct sdalias {
	const char *ops;    /* ops API path: "FileReader", "experimental.decoders.Image" */
	const char *fn;     /* fn API path: "file_reader", "experimental.decoders.image" */
	const char *legacy; /* DALI's schema name for the alias: "FileReader" */
	const char *serial; /* what DALI serializes: "readers__File", "ImageDecoder" */
	const char *target; /* the operator it stands for now: "readers__File" */
} sdalias_t;

/* The deprecated alias spelled `path` in the ops or fn API, or NULL. */
const sdalias_t *dalic_sdalias_find(bool ops_api, const char *path);
/* For a name DALI removed (ops.nvJPEGDecoder): what replaces it; NULL otherwise. */
const char *dalic_sdalias_removed(bool ops_api, const char *path);
/* Whether path ("readers", "experimental.decoders") is one of DALI's operator namespaces. */
bool dalic_sdalias_is_namespace(const char *path);
/* The table, for tests: entries until one with a NULL `legacy`. */
const sdalias_t *dalic_sdalias_table(void);

#endif
