/* The video readers' file list (see video_files.h). */
#include "kernels/common/video_files.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int dalic_video_files_add(video_files_t *l, const char *path, int32_t label, double start,
                          double end, char *err, size_t errn)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		video_file_t *v = cap < (1 << 24) ? realloc(l->v, sizeof *v * (size_t)cap) : NULL;
		if (!v) {
			snprintf(err, errn, "too many video files");
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	video_file_t *f = &l->v[l->n];
	memset(f, 0, sizeof *f);
	if (!(f->path = strdup(path))) {
		snprintf(err, errn, "out of memory listing videos");
		return -1;
	}
	f->label = label;
	f->start = start;
	f->end = end;
	l->n++;
	return 0;
}

void dalic_video_files_free(video_files_t *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].path);
		dalic_video_index_free(&l->v[i].index);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* "a/b" in a new string, or NULL (out of memory). */
static char *video_files_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", a, b);
	return p;
}

static int video_files_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int video_files_cmp_path(const void *a, const void *b)
{
	return strcmp(((const video_file_t *)a)->path, ((const video_file_t *)b)->path);
}

/* Names in `dir` that are directories (want_dirs) or regular files / links, unsorted. */
static int video_files_list_dir(const char *dir, bool want_dirs, char ***out, int *count,
                                char *err, size_t errn)
{
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errn, "Directory %s could not be opened: %s", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	int n = 0, cap = 0, rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) && !rc) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		bool is_dir = e->d_type == DT_DIR, keep;
		if (e->d_type == DT_UNKNOWN || (want_dirs && e->d_type == DT_LNK)) {
			char *full = video_files_join(dir, e->d_name);
			if (!full || stat(full, &st)) {
				snprintf(err, errn, "Could not access %s/%s during directory traversal: %s",
				         dir, e->d_name, full ? strerror(errno) : "out of memory");
				free(full);
				rc = -1;
				break;
			}
			free(full);
			is_dir = S_ISDIR(st.st_mode);
		}
		keep = want_dirs ? is_dir
		                 : e->d_type == DT_REG || e->d_type == DT_LNK ||
		                       (e->d_type == DT_UNKNOWN && !is_dir);
		if (!keep)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **grown = realloc(names, sizeof *names * (size_t)cap);
			if (!grown) {
				rc = -1;
				snprintf(err, errn, "out of memory listing %s", dir);
				break;
			}
			names = grown;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = -1;
			snprintf(err, errn, "out of memory listing %s", dir);
			break;
		}
		n++;
	}
	closedir(d);
	if (rc) {
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return -1;
	}
	*out = names;
	*count = n;
	return 0;
}

int dalic_video_files_scan(video_files_t *l, const char *root, char *err, size_t errn)
{
	char **dirs = NULL;
	int ndirs = 0, rc;
	if ((rc = video_files_list_dir(root, true, &dirs, &ndirs, err, errn)))
		return rc;
	qsort(dirs, (size_t)ndirs, sizeof *dirs, video_files_cmp_str);
	for (int i = 0; i < ndirs && !rc; i++) {
		char *sub = video_files_join(root, dirs[i]);
		char **files = NULL;
		int nfiles = 0;
		if (!sub) {
			snprintf(err, errn, "out of memory listing %s", root);
			rc = -1;
		} else {
			rc = video_files_list_dir(sub, false, &files, &nfiles, err, errn);
		}
		for (int k = 0; k < nfiles; k++) {
			char *full = video_files_join(sub, files[k]);
			if (!rc && !full) {
				snprintf(err, errn, "out of memory listing %s", sub);
				rc = -1;
			}
			if (!rc)
				rc = dalic_video_files_add(l, full, i, 0, 0, err, errn);
			free(full);
			free(files[k]);
		}
		free(files);
		free(sub);
	}
	for (int i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	if (!rc)
		qsort(l->v, (size_t)l->n, sizeof *l->v, video_files_cmp_path);
	return rc;
}

/* One whitespace-separated token of a line; advances *p. */
static bool video_files_token(const char **p, char *buf, size_t n)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	size_t k = 0;
	while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') {
		if (k + 1 < n)
			buf[k++] = *s;
		s++;
	}
	buf[k] = 0;
	*p = s;
	return k > 0;
}

/* A number at the start of tok as C++'s stream extraction reads one: true if any digits. */
static bool video_files_number(const char *tok, double *v)
{
	char *end;
	*v = strtod(tok, &end);
	return end != tok;
}

int dalic_video_files_parse(video_files_t *l, const char *list, char *err, size_t errn)
{
	FILE *f = fopen(list, "r");
	if (!f) {
		snprintf(err, errn, "%s could not be opened: %s", list, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	int rc = 0, line_num = 0;
	while (!rc && getline(&line, &cap, f) >= 0) {
		line_num++;
		const char *p = line;
		char path[PATH_MAX], tok[128];
		if (!video_files_token(&p, path, sizeof path))
			continue;
		double label = -1, start = 0, end = 0;
		bool has_label = video_files_token(&p, tok, sizeof tok) &&
		                 video_files_number(tok, &label);
		if (!has_label || !(label >= 0) || label > INT32_MAX) {
			snprintf(err, errn,
			         "Label value should be >= 0 in file_list at line number: %d, "
			         "filename: %s",
			         line_num, path);
			rc = -1;
			break;
		}
		bool has_start = video_files_token(&p, tok, sizeof tok) &&
		                 video_files_number(tok, &start);
		bool has_end = has_start && video_files_token(&p, tok, sizeof tok) &&
		               video_files_number(tok, &end);
		if (has_end && start == end)
			continue; /* DALI skips the line with a warning */
		rc = dalic_video_files_add(l, path, (int32_t)label, start, end, err, errn);
	}
	free(line);
	fclose(f);
	return rc;
}
