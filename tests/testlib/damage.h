/*
 * The damaged-image set of issue 20, made from the sample photographs: what real datasets hold
 * (bit rot in entropy-coded data, truncated downloads, broken markers and chunks, CMYK/YCCK,
 * arithmetic-coded and 12-bit JPEGs, every PNG colour type and bit depth). The same bytes on
 * every run, so tests can pin what DALI 2.4 does with each file (tests/data/damaged/).
 *
 * Plain C over libjpeg and libpng, no Criterion: tests/data/damaged/make_golden.py compiles it
 * with a small main to give real DALI the same files.
 */
#ifndef DALIC_TESTS_TESTLIB_DAMAGE_H
#define DALIC_TESTS_TESTLIB_DAMAGE_H

#include <stddef.h>

/* Writes every file of the set into `dir` (which must exist), reading the sources from
 * `samples` (samples/images). Returns the number of files written, or -1 with a message on
 * stderr. */
int tl_damage_write_set(const char *samples, const char *dir);

/* Copies `n` files of a set written by tl_damage_write_set (in `set`) into `dir`, which must
 * exist; names may hold one subfolder ("a/x.jpg" takes x.jpg into dir/a/, made when missing).
 * Returns 0, or -1 with a message on stderr. */
int tl_damage_pick(const char *set, const char *dir, int n, const char *const *names);

/* FNV-1a 64 of n bytes: the checksum the golden file holds for files and decoded pixels. */
unsigned long long tl_damage_hash(const void *data, size_t n);

#endif
