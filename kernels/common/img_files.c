/* File lists for readers.file (see img_files.h). Mirrors DALI's filesystem.cc traversal and
 * FileLabelLoader's list parsing, including their error texts. */
#include "kernels/common/img_files.h"

#include "engine/error.h"
#include "engine/memory.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

void dalic_img_file_list_free(img_file_list_t *l)
{
	for (int i = 0; i < l->n; i++) {
		img_file_entry_t *e = &l->v[i];
		if (e->cache && e->cache_mapped) {
			munmap(e->cache, (size_t)e->size);
		} else if (e->cache) {
			free(e->cache);
			dalic_mem_uncharge((size_t)e->size); /* charged by readers.file */
		}
		free(e->path);
		free(e->full);
	}
	free(l->v);
	dalic_mem_uncharge(l->charged);
	memset(l, 0, sizeof *l);
}

/* DALI's join_path: an absolute `path` or an empty `dir` leaves `path` alone. */
static char *files_join_path(const char *dir, const char *path)
{
	size_t dl = dir ? strlen(dir) : 0, pl = strlen(path);
	if (dl == 0 || path[0] == '/')
		return strdup(path);
	if (pl == 0)
		return strdup(dir);
	bool sep = dir[dl - 1] != '/';
	char *s = malloc(dl + pl + 2);
	if (!s)
		return NULL;
	memcpy(s, dir, dl);
	if (sep)
		s[dl++] = '/';
	memcpy(s + dl, path, pl + 1);
	return s;
}

/* Charges `bytes` more of list metadata against the memory budget. */
static int files_charge(img_file_list_t *l, size_t bytes)
{
	if (dalic_mem_charge(bytes))
		return -1;
	l->charged += bytes;
	return 0;
}

int dalic_img_file_list_add(img_file_list_t *l, const char *root, const char *path, int32_t label)
{
	if (l->n == l->cap) {
		if (l->cap > (1 << 29)) {
			dalic_fail(DALIC_ENOMEM, "more than %d files", l->cap);
			return -1;
		}
		int cap = l->cap ? l->cap * 2 : 64;
		if (files_charge(l, sizeof *l->v * (size_t)(cap - l->cap)))
			return -1;
		img_file_entry_t *v = realloc(l->v, sizeof *v * (size_t)cap);
		if (!v) {
			dalic_fail(DALIC_ENOMEM, "out of memory for %d file entries", cap);
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	img_file_entry_t *e = &l->v[l->n];
	memset(e, 0, sizeof *e);
	if (files_charge(l, 2 * strlen(path) + (root ? strlen(root) : 0) + 4))
		return -1;
	e->path = strdup(path);
	e->full = files_join_path(root, path);
	if (!e->path || !e->full) {
		free(e->path);
		free(e->full);
		dalic_fail(DALIC_ENOMEM, "out of memory for file names");
		return -1;
	}
	e->label = label;
	e->size = -1;
	l->n++;
	return 0;
}

typedef struct name_vec {
	char **v;
	int n, cap;
} name_vec_t;

static int files_names_push(name_vec_t *nv, const char *s)
{
	if (nv->n == nv->cap) {
		int cap = nv->cap ? nv->cap * 2 : 32;
		char **v = realloc(nv->v, sizeof *v * (size_t)cap);
		if (!v)
			return -1;
		nv->v = v;
		nv->cap = cap;
	}
	if (!(nv->v[nv->n] = strdup(s)))
		return -1;
	nv->n++;
	return 0;
}

static void files_names_free(name_vec_t *nv)
{
	for (int i = 0; i < nv->n; i++)
		free(nv->v[i]);
	free(nv->v);
	memset(nv, 0, sizeof *nv);
}

/* std::sort on std::string orders by unsigned bytes, as strcmp does. */
static int files_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool files_matches_any(const char *name, const char *const *filters, int n,
                              bool case_sensitive)
{
	for (int i = 0; i < n; i++)
		if (fnmatch(filters[i], name, case_sensitive ? 0 : FNM_CASEFOLD) == 0)
			return true;
	return false;
}

static int files_list_subdirs(const char *root, const char *const *dir_filters, int ndir,
                              bool case_sensitive, name_vec_t *out, char *err, size_t errn)
{
	DIR *d = opendir(root);
	if (!d) {
		snprintf(err, errn, "Failed to open %s", root);
		return -1;
	}
	struct dirent *ent;
	int rc = 0;
	while (!rc && (ent = readdir(d))) {
		if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
			continue;
		char *full = files_join_path(root, ent->d_name);
		struct stat st;
		if (!full || stat(full, &st) != 0) {
			snprintf(err, errn, "Could not access %s during directory traversal.",
				 full ? full : ent->d_name);
			rc = -1;
		} else if (S_ISDIR(st.st_mode) &&
		           (ndir == 0 ||
		            files_matches_any(ent->d_name, dir_filters, ndir, case_sensitive))) {
			if (files_names_push(out, ent->d_name)) {
				snprintf(err, errn, "out of memory listing %s", root);
				rc = -1;
			}
		}
		free(full);
	}
	closedir(d);
	if (out->n > 1)
		qsort(out->v, (size_t)out->n, sizeof *out->v, files_cmp_names);
	return rc;
}

static int files_list_files(const char *dir, const char *const *filters, int nfilters,
                            bool case_sensitive, name_vec_t *out, char *err, size_t errn)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errn, "Failed to open %s", dir);
		return -1;
	}
	struct dirent *ent;
	int rc = 0;
	while (!rc && (ent = readdir(d))) {
		/* Regular files and symlinks; DT_UNKNOWN (some file systems) is judged by name. */
		if (ent->d_type != DT_REG && ent->d_type != DT_LNK && ent->d_type != DT_UNKNOWN)
			continue;
		if (files_matches_any(ent->d_name, filters, nfilters, case_sensitive) &&
		    files_names_push(out, ent->d_name)) {
			snprintf(err, errn, "out of memory listing %s", dir);
			rc = -1;
		}
	}
	closedir(d);
	if (out->n > 1)
		qsort(out->v, (size_t)out->n, sizeof *out->v, files_cmp_names);
	return rc;
}

/* Adds the files of root/rel matching the filters, sorted, as "rel/name". */
static int files_scan_dir(img_file_list_t *l, const char *root, const char *rel,
                          const char *const *filters, int nfilters, bool case_sensitive,
                          int32_t label, char *err, size_t errn)
{
	char *dir = files_join_path(root, rel);
	name_vec_t files = {0};
	int rc = dir ? files_list_files(dir, filters, nfilters, case_sensitive, &files, err, errn)
	             : -1;
	for (int i = 0; !rc && i < files.n; i++) {
		char *path = files_join_path(rel, files.v[i]);
		if (!path || dalic_img_file_list_add(l, root, path, label)) {
			snprintf(err, errn, "listing %s: %s", root,
			         path ? dalic_last_error() : "out of memory");
			rc = -1;
		}
		free(path);
	}
	files_names_free(&files);
	free(dir);
	return rc;
}

int dalic_img_file_list_scan(img_file_list_t *l, const char *root, const char *const *filters,
                             int nfilters, const char *const *dir_filters, int ndir_filters,
                             bool case_sensitive, char *err, size_t errn)
{
	name_vec_t subdirs = {0};
	int rc = files_list_subdirs(root, dir_filters, ndir_filters, case_sensitive, &subdirs, err,
	                            errn);
	for (int k = 0; !rc && k < subdirs.n; k++)
		rc = files_scan_dir(l, root, subdirs.v[k], filters, nfilters, case_sensitive, k, err,
		                    errn);
	files_names_free(&subdirs);
	return rc;
}

int dalic_img_file_list_scan_flat(img_file_list_t *l, const char *root, const char *filter,
                                  char *err, size_t errn)
{
	name_vec_t subdirs = {0};
	int rc = files_list_subdirs(root, NULL, 0, true, &subdirs, err, errn);
	if (!rc)
		rc = files_scan_dir(l, root, ".", &filter, 1, true, 0, err, errn);
	for (int k = 0; !rc && k < subdirs.n; k++)
		rc = files_scan_dir(l, root, subdirs.v[k], &filter, 1, true, 0, err, errn);
	files_names_free(&subdirs);
	return rc;
}

int dalic_img_file_list_parse_names(img_file_list_t *l, const char *list_path, const char *root,
                                    char *err, size_t errn)
{
	FILE *f = fopen(list_path, "r");
	if (!f) {
		snprintf(err, errn, "Cannot open: %s (%s)", list_path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = 0;
		if (len > 0 && dalic_img_file_list_add(l, root, line, 0)) {
			snprintf(err, errn, "reading %s: %s", list_path, dalic_last_error());
			rc = -1;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int dalic_img_file_list_parse(img_file_list_t *l, const char *list_path, const char *root,
                              char *err, size_t errn)
{
	FILE *f = fopen(list_path, "r");
	if (!f) {
		snprintf(err, errn, "Cannot open: %s (%s)", list_path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int rc = 0;
	for (int64_t n = 1; !rc && (len = getline(&line, &cap, f)) >= 0; n++) {
		ssize_t i = len - 1;
		while (i >= 0 && isspace((unsigned char)line[i]))
			i--;
		ssize_t label_end = i + 1;
		if (i < 0)
			continue; /* empty line */
		while (i >= 0 && isdigit((unsigned char)line[i]))
			i--;
		ssize_t label_start = i + 1;
		while (i >= 0 && isspace((unsigned char)line[i]))
			i--;
		ssize_t name_end = i + 1;
		if (!(name_end > 0 && name_end < label_start && label_start >= 2 &&
		      label_end > label_start)) {
			line[label_end] = 0;
			snprintf(err, errn,
				 "Incorrect format of the list file \"%s\":%lld expected file name "
				 "followed by a label; got: %s",
				 list_path, (long long)n, line);
			rc = -1;
			break;
		}
		line[label_end] = 0;
		/* digits only, so the label is >= 0; it must fit DALI's int label */
		int64_t label = 0;
		for (ssize_t k = label_start; k < label_end && label <= INT32_MAX; k++)
			label = label * 10 + (line[k] - '0');
		if (label > INT32_MAX) {
			snprintf(
			    err, errn,
			    "Incorrect format of the list file \"%s\":%lld the label %s is out of "
			    "range (labels are 32-bit integers, at most 2147483647); got: %s",
			    list_path, (long long)n, line + label_start, line);
			rc = -1;
			break;
		}
		line[name_end] = 0;
		if (dalic_img_file_list_add(l, root, line, (int32_t)label)) {
			snprintf(err, errn, "reading %s: %s", list_path, dalic_last_error());
			rc = -1;
		}
	}
	free(line);
	fclose(f);
	return rc;
}
