/*
 * ArithmeticGenericOp internals, shared by arithmetic.c (the operator form), arith_parse.c
 * (expression_desc parsing, DALI's type promotion) and arith_eval.c (tile evaluation).
 *
 * An expression is a tree kept as an array in post-order: every node's operands come before
 * it and the root is last. Leaves are tensor inputs ("&k") or scalar constants ("$k:type").
 *
 * Values travel between nodes in tiles of ARITH_TILE elements in one of three "lanes":
 * integers and bool as int64 (uint64 keeps its bit pattern), float16 and float32 as float,
 * float64 as double. Every node stores its result normalized to its own dtype (an int8 node
 * holds values in [-128, 127], a float16 node holds values representable in half), so nested
 * expressions behave as if each intermediate were a tensor of that dtype, as in DALI.
 */
#ifndef DALIC_KERNELS_ARITH_EXPR_H
#define DALIC_KERNELS_ARITH_EXPR_H

#include "dalic.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARITH_MAX_NODES 64
#define ARITH_MAX_ARITY 3
#define ARITH_MAX_INPUTS 64
#define ARITH_TILE 1024

typedef enum { ARITH_INPUT, ARITH_CONST, ARITH_FUNC } arith_kind_t;

typedef enum { ARITH_LANE_I64, ARITH_LANE_F32, ARITH_LANE_F64 } arith_lane_t;

/* Operations, in the order of arith_ops[] (arith_parse.c). */
typedef enum {
	ARITH_PLUS,
	ARITH_MINUS,
	ARITH_ABS,
	ARITH_FABS,
	ARITH_FLOOR,
	ARITH_CEIL,
	ARITH_SQRT,
	ARITH_RSQRT,
	ARITH_CBRT,
	ARITH_EXP,
	ARITH_LOG,
	ARITH_LOG2,
	ARITH_LOG10,
	ARITH_SIN,
	ARITH_COS,
	ARITH_TAN,
	ARITH_ASIN,
	ARITH_ACOS,
	ARITH_ATAN,
	ARITH_SINH,
	ARITH_COSH,
	ARITH_TANH,
	ARITH_ASINH,
	ARITH_ACOSH,
	ARITH_ATANH,
	ARITH_ADD,
	ARITH_SUB,
	ARITH_MUL,
	ARITH_DIV,
	ARITH_FDIV,
	ARITH_MOD,
	ARITH_MIN,
	ARITH_MAX,
	ARITH_POW,
	ARITH_FPOW,
	ARITH_ATAN2,
	ARITH_EQ,
	ARITH_NEQ,
	ARITH_LT,
	ARITH_LEQ,
	ARITH_GT,
	ARITH_GEQ,
	ARITH_BITAND,
	ARITH_BITOR,
	ARITH_BITXOR,
	ARITH_CLAMP,
	ARITH_NUM_OPS
} arith_op_t;

/* How a comparison between integers is done (DALI's safe_compare: a negative signed value
 * compared with a uint64 is never converted to unsigned). */
typedef enum {
	ARITH_CMP_SIGNED,   /* both fit int64 */
	ARITH_CMP_UNSIGNED, /* both unsigned */
	ARITH_CMP_S_U64,    /* left signed, right uint64 */
	ARITH_CMP_U64_S,    /* left uint64, right signed */
} arith_cmp_t;

typedef struct arith_node {
	arith_kind_t kind;
	arith_op_t op; /* ARITH_FUNC */
	int index;     /* ARITH_INPUT: tensor input; ARITH_CONST: constant index */
	int num_args;
	int args[ARITH_MAX_ARITY];
	dalic_dtype_t dtype;   /* result type (inputs: set by dalic_arith_infer) */
	dalic_dtype_t compute; /* type operands are converted to; differs from dtype only for
	                          comparisons */
	arith_cmp_t cmp;       /* integer comparisons */
	int slot;              /* ARITH_CONST: which constant tile holds the value */
	int pos;               /* offset in expression_desc, for messages */
} arith_node_t;

typedef struct arith_expr {
	arith_node_t nodes[ARITH_MAX_NODES]; /* post-order; root last */
	int num_nodes;
	int max_input;     /* highest tensor input index used, -1 if none */
	int num_constants; /* constant nodes (their slots are 0 .. num_constants-1) */
} arith_expr_t;

/* Name of an operation as written in expression_desc ("add"). */
const char *dalic_arith_op_name(arith_op_t op);
/* The lane that holds values of dtype t. */
arith_lane_t dalic_arith_lane(dalic_dtype_t t);
/* DALI's binary type promotion (arithmetic_meta.h); commutative. */
dalic_dtype_t dalic_arith_promote(dalic_dtype_t a, dalic_dtype_t b);

/* Parses DALI's expression_desc grammar:
 *   expr := name "(" expr (" " expr)* ")" | "&" uint | "$" uint ":" type
 * On failure writes a message (with the position) to err and returns false. */
bool dalic_arith_parse(const char *desc, arith_expr_t *e, char *err, size_t errlen);
/* Fills dtype/compute/cmp of every node from the input dtypes; checks DALI's rules (bitwise
 * ops on integral types only, no arithmetic on booleans except `*`). */
bool dalic_arith_infer(arith_expr_t *e, const dalic_dtype_t *input_dtypes, int num_inputs,
                       char *err, size_t errlen);

/* ---- operations (arith_ops.c) ---- */

/* Runs function node n over len elements; v[] are its operands converted to n->compute, out
 * receives values in n->compute's lane (comparisons: bools in the int64 lane). Returns false
 * on an integer division or modulo by zero. */
bool dalic_arith_apply(const arith_node_t *n, const void *const *v, void *out, int len);
/* Wraps int64 lane values to the range of integral dtype t (a static_cast to t). */
void dalic_arith_normalize(dalic_dtype_t t, int64_t *r, int n);
/* Rounds float lane values to the nearest float16 (a static_cast to float16). */
void dalic_arith_round_to_half(float *v, int n);

/* ---- evaluation (arith_eval.c) ---- */

/* One tile-sized buffer in any lane. */
typedef union arith_tile {
	int64_t i[ARITH_TILE];
	float f[ARITH_TILE];
	double d[ARITH_TILE];
} arith_tile_t;

/* Where the values of one tensor input come from for one output sample: the input sample
 * and, per output dim, the input stride (0 where the input is broadcast). */
/* (A named enum outside the struct: C++, which compiles this through the CUDA kernel, would
 * scope the constants inside it.) */
typedef enum { ARITH_SAME, ARITH_SCALAR, ARITH_STRIDED } arith_operand_mode_t;

typedef struct arith_operand {
	const void *data;
	dalic_dtype_t dtype;
	arith_operand_mode_t mode;
	int64_t strides[DALIC_MAX_NDIM];
} arith_operand_t;

typedef struct arith_sample {
	int ndim;
	const int64_t *shape; /* output shape */
	int64_t elems;
	const arith_operand_t *inputs; /* indexed by tensor input */
	void *out;
} arith_sample_t;

/* Operand `op` for an input sample of `in_ndim` dims seen through the output shape (numpy
 * broadcasting, shapes aligned on the right): strides 0 on broadcast dims. Shared by the CPU
 * operator and the CUDA kernel's callers. */
void dalic_arith_operand(const void *data, dalic_dtype_t dtype, int in_ndim,
                         const int64_t *in_shape, int out_ndim, const int64_t *out_shape,
                         arith_operand_t *op);

/* Scratch for one thread: (1 + arity) tiles per node. */
size_t dalic_arith_scratch_tiles(const arith_expr_t *e);
/* Fills one tile per constant node (tiles[node.slot]) with its value in its lane. Integer
 * constants wrap to their type like DALI's static_cast; real constants go through float32
 * first, because DALI stores `real_constants` as a float list. Indices must be valid. */
void dalic_arith_fill_constants(const arith_expr_t *e, const int64_t *ints, const double *reals,
                                arith_tile_t *const_tiles);
/* Evaluates the whole sample into s->out. Returns -1, or the index of the node that hit an
 * integer division by zero (the output is then incomplete). */
int dalic_arith_eval_sample(const arith_expr_t *e, const arith_sample_t *s, arith_tile_t *scratch,
                            const arith_tile_t *const_tiles);

/* The typed expression and constant tiles of an ArithmeticGenericOp instance after its setup
 * (defined in kernels/cpu/math/arithmetic.c), for its GPU path (gpu_arith.c). */
struct dalic_op_ctx;
const arith_expr_t *dalic_arith_op_expr(const struct dalic_op_ctx *ctx,
                                        const arith_tile_t **const_tiles);

#endif
