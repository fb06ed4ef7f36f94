/*
 * DALI's serialized pipeline (the PipelineDef protobuf of frontend/dali.proto) read into and
 * written from the graph definition. The writer puts in exactly what DALI's
 * Pipeline.serialize() puts in (docs/dali-behaviour.md §1.2-1.4); the reader follows DALI's loading rules
 * (§1.5), including legacy names, and turns anything malformed into a status plus a message
 * that names the operator and argument — never a crash.
 */
#ifndef DALIC_FRONTEND_PROTO_H
#define DALIC_FRONTEND_PROTO_H

#include "engine/graphdef.h"

#include <stdio.h>

/* Serializes `g` (borrowed, not modified). Operators that reach no output and are not
 * preserved are left out, as DALI's serialize() leaves them out. A seed of -1 is replaced by
 * one taken from the clock, since DALI always stores the concrete seed.
 * *buf is new: free() it; *len is its size. */
int dalic_proto_write(const dalic_graphdef_t *g, uint8_t **buf, size_t *len);

/* Parses PipelineDef bytes (borrowed) into a new graph definition with parameters from the
 * file and everything else at DALI's defaults. *out is new: free with dalic_graphdef_free.
 * Errors: DALIC_EPARSE (malformed bytes, bad field values), DALIC_EUNKNOWN_OP,
 * DALIC_EUNKNOWN_ARG, DALIC_EARG_TYPE, DALIC_EGRAPH (names, dangling inputs). */
int dalic_proto_read(const uint8_t *buf, size_t len, dalic_graphdef_t **out);

/* True when the bytes parse as a PipelineDef (DALI's daliIsDeserializable). */
bool dalic_proto_sniff(const uint8_t *buf, size_t len);

/* Reads the file at `path` and parses it; sets (*out)->source to a copy of path.
 * *out is new: free with dalic_graphdef_free. DALIC_EIO when the file cannot be read. */
int dalic_proto_load_file(const char *path, dalic_graphdef_t **out);

/* Prints the PipelineDef in `buf` as readable text (what `dalic show` prints): parameters,
 * operators with their inputs, outputs and typed arguments, pipeline outputs — as the file
 * holds them, before any validation. DALIC_EPARSE if the bytes do not parse. */
int dalic_proto_print(const uint8_t *buf, size_t len, FILE *f);

#endif
