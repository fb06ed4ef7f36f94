/* Webdataset samples from index files and from tar archives (wds_index.h). */
#include "kernels/common/wds_index.h"

#include "kernels/common/wds_tar.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int wds_oom(char *err, size_t n)
{
	snprintf(err, n, "out of memory");
	return -1;
}

static int wds_add_comp(wds_raw_set_t *set, int64_t off, int64_t size, const char *ext,
                        size_t ext_len, const char *name)
{
	if (set->nc == set->capc) {
		int cap = set->capc ? set->capc * 2 : 64;
		wds_comp_t *c = realloc(set->c, sizeof *c * (size_t)cap);
		if (!c)
			return -1;
		set->c = c;
		set->capc = cap;
	}
	wds_comp_t *c = &set->c[set->nc];
	c->offset = off;
	c->size = size;
	c->ext = strndup(ext, ext_len);
	c->name = strdup(name);
	if (!c->ext || !c->name) {
		free(c->ext);
		free(c->name);
		return -1;
	}
	set->nc++;
	return 0;
}

static int wds_add_sample(wds_raw_set_t *set, int64_t line, int first)
{
	if (set->ns == set->caps) {
		int cap = set->caps ? set->caps * 2 : 64;
		wds_raw_t *s = realloc(set->s, sizeof *s * (size_t)cap);
		if (!s)
			return -1;
		set->s = s;
		set->caps = cap;
	}
	set->s[set->ns++] = (wds_raw_t){line, first, set->nc - first};
	return 0;
}

/* The next whitespace-separated token of *p, or NULL at the end. */
static const char *wds_token(const char **p, size_t *len)
{
	const char *s = *p;
	while (*s && isspace((unsigned char)*s))
		s++;
	if (!*s)
		return NULL;
	const char *e = s;
	while (*e && !isspace((unsigned char)*e))
		e++;
	*len = (size_t)(e - s);
	*p = e;
	return s;
}

static bool wds_int(const char *s, size_t len, int64_t *v)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	char *end;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (*end || errno || x < 0)
		return false;
	*v = x;
	return true;
}

/* One sample line: components until the line ends. */
static int wds_index_line(wds_raw_set_t *set, const char *text, bool v12, const char *path,
                          int64_t line, char *err, size_t n)
{
	int first = set->nc;
	const char *p = text, *t;
	size_t len;
	while ((t = wds_token(&p, &len))) {
		const char *ext = t;
		size_t ext_len = len;
		int64_t off, size;
		const char *name = "";
		size_t name_len = 0;
		const char *o = wds_token(&p, &len);
		bool ok = o && wds_int(o, len, &off);
		const char *s = ok ? wds_token(&p, &len) : NULL;
		ok = ok && s && wds_int(s, len, &size);
		if (ok && v12) {
			name = wds_token(&p, &name_len);
			ok = name != NULL;
		}
		if (!ok) {
			snprintf(err, n,
			         "Malformed index file at \"%s\" line %lld - Could not find all "
			         "necessary component parameters (%s). Every record in the index file "
			         "should look like: `%s`.",
			         path, (long long)line, v12 ? "offset, size or filename" : "offset or size",
			         v12 ? "<ext> <offset> <size> <filename>" : "<ext> <offset> <size>");
			return -1;
		}
		if (off % 512) {
			snprintf(err, n,
			         "Malformed index file at \"%s\" line %lld - tar offset is not a multiple "
			         "of tar block size (512), perhaps the size value is exported before "
			         "offset?",
			         path, (long long)line);
			return -1;
		}
		char *nm = strndup(name, name_len);
		int rc = nm ? wds_add_comp(set, off, size, ext, ext_len, nm) : -1;
		free(nm);
		if (rc)
			return wds_oom(err, n);
	}
	if (set->nc == first) {
		snprintf(err, n,
		         "Malformed index file at \"%s\" line %lld - no extensions provided for the "
		         "sample",
		         path, (long long)line);
		return -1;
	}
	return wds_add_sample(set, line, first) ? wds_oom(err, n) : 0;
}

int dalic_wds_index_parse(wds_raw_set_t *set, const char *path, char *err, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, n, "cannot open the index file \"%s\": %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	int rc = -1;
	const char *p = getline(&line, &cap, f) >= 0 ? line : "", *t;
	size_t len;
	int64_t count;
	if (!(t = wds_token(&p, &len))) {
		snprintf(err, n, "Malformed index file at \"%s\" line 0 - no version signature found",
		         path);
	} else if (!((len == 4 && !memcmp(t, "v1.1", 4)) || (len == 4 && !memcmp(t, "v1.2", 4)))) {
		snprintf(err, n,
		         "Malformed index file at \"%s\" line 0 - Unsupported version of the index "
		         "file (%.*s).",
		         path, (int)(len < 20 ? len : 20), t);
	} else {
		bool v12 = t[3] == '2';
		const char *c = wds_token(&p, &len);
		int64_t line_no;
		if (!c || !wds_int(c, len, &count) || count == 0) {
			snprintf(err, n, "Malformed index file at \"%s\" line 0 - %s", path,
			         !c ? "no sample count found" : "sample count must be positive");
		} else {
			rc = 0;
			for (line_no = 1; line_no <= count && !rc; line_no++) {
				const char *text = getline(&line, &cap, f) >= 0 ? line : "";
				rc = wds_index_line(set, text, v12, path, line_no, err, n);
			}
		}
	}
	free(line);
	fclose(f);
	return rc;
}

typedef struct wds_group {
	wds_raw_set_t *set;
	char *last; /* basename of the sample being gathered; NULL before the first file */
	int first;  /* its first component */
	int rc;
} wds_group_t;

/* DALI's split_name: the basename ends at the first '.' after the last '/'. */
static void wds_split(const char *name, size_t *base_len, const char **ext)
{
	const char *slash = strrchr(name, '/');
	const char *dot = strchr(slash ? slash + 1 : name, '.');
	*base_len = dot ? (size_t)(dot - name) : strlen(name);
	*ext = dot ? dot + 1 : name; /* no dot: std::string::npos + 1 is 0, the whole name */
}

static int wds_group_entry(void *user, const char *name, int64_t off, int64_t size, bool regular)
{
	wds_group_t *g = user;
	if (!regular)
		return 0;
	size_t base_len;
	const char *ext;
	wds_split(name, &base_len, &ext);
	if (!g->last) { /* DALI takes the first file's basename, even an empty one */
		g->last = strndup(name, base_len);
		g->first = g->set->nc;
		if (!g->last)
			return -2;
	}
	if (base_len == 0)
		return 0; /* hidden files */
	if (strlen(g->last) != base_len || memcmp(g->last, name, base_len)) {
		if (wds_add_sample(g->set, 0, g->first))
			return -2;
		free(g->last);
		g->last = strndup(name, base_len);
		g->first = g->set->nc;
		if (!g->last)
			return -2;
	}
	return wds_add_comp(g->set, off, size, ext, strlen(ext), name) ? -2 : 0;
}

int dalic_wds_tar_samples(wds_raw_set_t *set, int fd, int64_t size, const char *path, char *err,
                          size_t n)
{
	wds_group_t g = {.set = set, .first = set->nc};
	int rc = dalic_wds_tar_walk(fd, size, path, wds_group_entry, &g, err, n);
	free(g.last);
	if (rc == -2)
		return wds_oom(err, n);
	if (rc)
		return rc;
	/* the last sample (an empty one for an archive without files, as in DALI) */
	return wds_add_sample(set, 0, g.first) ? wds_oom(err, n) : 0;
}

void dalic_wds_raw_free(wds_raw_set_t *set)
{
	for (int i = 0; i < set->nc; i++) {
		free(set->c[i].ext);
		free(set->c[i].name);
	}
	free(set->c);
	free(set->s);
	memset(set, 0, sizeof *set);
}
