/*
 * The video list of the video readers (DALI's GetVideoFiles, video_utils.cc): `filenames`
 * with optional labels, a `file_root` whose sorted subdirectories give the labels (every
 * regular file inside, the whole list sorted by path), or a `file_list` of
 * `path label [start [end]]` lines (paths as written, relative to the working directory).
 * Each entry keeps its frame index once built, and the frame range the reader samples.
 */
#ifndef DALIC_KERNELS_VIDEO_FILES_H
#define DALIC_KERNELS_VIDEO_FILES_H

#include "kernels/common/video_decode.h"

typedef struct video_file {
	char *path; /* opened path and source info */
	int32_t label;
	double start, end; /* file_list range (0, 0: the whole video) */
	int start_frame, end_frame;
	video_index_t index;
} video_file_t;

typedef struct video_files {
	video_file_t *v;
	int n, cap;
} video_files_t;

int dalic_video_files_add(video_files_t *l, const char *path, int32_t label, double start,
                          double end, char *err, size_t errn);
/* Subdirectories of root sorted byte-wise, label = position; every regular file (or link)
 * inside each; then all entries sorted by path. */
int dalic_video_files_scan(video_files_t *l, const char *root, char *err, size_t errn);
/* `path label [start [end]]` per line; blank lines skipped; a line whose start equals its end
 * is skipped, as DALI does (with a warning there). */
int dalic_video_files_parse(video_files_t *l, const char *list, char *err, size_t errn);
void dalic_video_files_free(video_files_t *l);

#endif
