/*
 * Writes the sample video clips into a directory (`make` runs it into build/<variant>/clips):
 * the test pattern of tests/testlib/video_clip.h in H.264, VP9, MPEG-4 and MJPEG, one
 * variable-frame-rate clip, a class tree for `file_root` and a `file_list`.
 *
 *     mkclips DIR
 */
#include "tests/testlib/video_clip.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct mkclips_entry {
	const char *path;
	tl_clip_t clip;
} mkclips_entry_t;

static const mkclips_entry_t mkclips_set[] = {
	{"h264.mp4", {.codec = "libx264", .frames = 30, .bframes = 2, .clip_id = 1}},
	{"vp9.webm", {.codec = "libvpx-vp9", .frames = 24, .clip_id = 2}},
	{"mpeg4.avi", {.codec = "mpeg4", .frames = 20, .bframes = 1, .clip_id = 3}},
	{"mjpeg.avi", {.codec = "mjpeg", .frames = 12, .gop = 1, .clip_id = 4}},
	{"vfr.mkv", {.codec = "libx264", .frames = 20, .vfr = true, .clip_id = 5}},
	{"vfr_vp9.webm", {.codec = "libvpx-vp9", .frames = 16, .vfr = true, .clip_id = 6}},
	{"large.mp4", {.codec = "libx264", .width = 640, .height = 352, .frames = 120, .gop = 30,
		       .bframes = 2, .clip_id = 10}},
	/* DALI's wheel decodes VP9 and MJPEG on the CPU (not H.264): the tree is for the oracle */
	{"tree/a/vp9_a.webm", {.codec = "libvpx-vp9", .frames = 18, .gop = 6, .clip_id = 7}},
	{"tree/a/mjpeg_b.avi", {.codec = "mjpeg", .frames = 10, .gop = 1, .clip_id = 8}},
	{"tree/b/vp9_c.webm", {.codec = "libvpx-vp9", .frames = 14, .clip_id = 9}},
};

/* file_list files: paths as the reader opens them (DIR/...), labels, optional ranges. */
static const struct mkclips_list {
	const char *name, *lines;
} mkclips_lists[] = {
	{"list.txt", "%1$s/vp9.webm 3\n%1$s/tree/a/vp9_a.webm 7\n%1$s/mjpeg.avi 11\n"},
	{"list_seconds.txt", "%1$s/vp9.webm 1 0.1 0.5\n%1$s/tree/a/vp9_a.webm 2 0.25 0.61\n"
	                     "%1$s/tree/b/vp9_c.webm 3 0 0.3\n"},
	{"list_empty.txt", "%1$s/vp9.webm 1 3\n"},
	{"list_frames.txt", "%1$s/vp9.webm 1 2.5 9\n%1$s/tree/b/vp9_c.webm 4 -6 -1\n"},
};

static int mkclips_mkdir(const char *dir, const char *rel)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(p, 0755) && errno != EEXIST) {
			fprintf(stderr, "mkclips: cannot create %s: %s\n", p, strerror(errno));
			return -1;
		}
		*s = '/';
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mkclips DIR\n");
		return 2;
	}
	const char *dir = argv[1];
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "mkclips: cannot create %s: %s\n", dir, strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof mkclips_set / sizeof mkclips_set[0]; i++) {
		char path[4096], err[256];
		snprintf(path, sizeof path, "%s/%s", dir, mkclips_set[i].path);
		if (mkclips_mkdir(dir, mkclips_set[i].path))
			return 1;
		if (tl_clip_write(path, &mkclips_set[i].clip, err, sizeof err)) {
			fprintf(stderr, "mkclips: %s: %s\n", path, err);
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof mkclips_lists / sizeof mkclips_lists[0]; i++) {
		char list[4096];
		snprintf(list, sizeof list, "%s/%s", dir, mkclips_lists[i].name);
		FILE *f = fopen(list, "w");
		if (!f || fprintf(f, mkclips_lists[i].lines, dir) < 0 || fclose(f)) {
			fprintf(stderr, "mkclips: cannot write %s\n", list);
			return 1;
		}
	}
	return 0;
}
