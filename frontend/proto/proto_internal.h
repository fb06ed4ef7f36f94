/* Pieces shared by the protobuf reader, writer and printer (frontend/proto_*.c). */
#ifndef DALIC_FRONTEND_PROTO_INTERNAL_H
#define DALIC_FRONTEND_PROTO_INTERNAL_H

#include "dali.pb-c.h"
#include "frontend/proto/proto.h"

/* Deepest message nesting accepted (protobuf's own default recursion limit is 100).
 * Argument.extra_args nests without bound on the wire, and protobuf-c's unpacker recurses
 * per level, so deeper input is refused before it reaches the unpacker. */
#define DALIC_PROTO_MAX_DEPTH 64

/* Walks the wire format of `buf` as message `d` and describes the first problem found
 * (truncation, bad wire type, nesting too deep, missing required field) into msg, with its
 * byte offset and field path. Returns true when it found one. */
bool dalic_proto_check_wire(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len,
                            char *msg, size_t n);

/* Checks and unpacks a PipelineDef. *out is new: free with
 * dali_proto__pipeline_def__free_unpacked(*out, NULL). DALIC_EPARSE with DALI's message plus
 * the reason when the bytes are not a PipelineDef. */
int dalic_proto_unpack(const uint8_t *buf, size_t len, DaliProto__PipelineDef **out);

/* Reads a whole file. *buf is new: free(). DALIC_EIO naming the path on failure. */
int dalic_proto_slurp(const char *path, uint8_t **buf, size_t *len);

/* readers.tfrecord's `features` (proto_tfrec.c): DALI's "TFRecord" Arguments to the text
 * form of kernels/common/tfrec_feature.h (a new string list in *out) and back; `alloc`
 * returns zeroed memory the caller frees (the writer's arena). */
typedef void *(*dalic_proto_alloc_fn)(void *ctx, size_t count, size_t size);
int dalic_proto_tfrec_decode(const DaliProto__Argument *a, const char *inst, const char *schema,
                             dalic_value_t *out);
int dalic_proto_tfrec_encode(const dalic_value_t *v, DaliProto__Argument *m,
                             dalic_proto_alloc_fn alloc, void *ctx);

/* ExecutorType bits (docs/dali-behaviour.md §3.1) stored in PipelineDef.executor_type / _flags. */
enum {
	DALIC_EXEC_PIPELINED = 1,
	DALIC_EXEC_ASYNC = 2,
	DALIC_EXEC_SEPARATED = 4,
	DALIC_EXEC_DYNAMIC = 8,
	DALIC_EXEC_FLAG_SET_AFFINITY = 1,
};

#endif
