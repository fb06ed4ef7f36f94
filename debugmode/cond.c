/*
 * Breakpoint conditions on values. Grammar (case-insensitive words):
 *
 *     cond    := [NODE ":"] clause { ("or" | "||") clause }
 *     clause  := term { ("and" | "&&") term }
 *     term    := "any" ("nan" | "inf")
 *              | quantity CMP number
 *     quantity:= "min" | "max" | "mean" | "std" | "nan" | "inf" | "numel" | "ndim"
 *              | "shape[" INT "]"
 *     CMP     := ">" | ">=" | "<" | "<=" | "==" | "!="
 *
 * A condition holds for a batch when it holds for some sample; statistics are per sample, over
 * finite values (NaN and Inf are counted, not averaged). "shape[d]" on a sample with fewer
 * dimensions is false. Values are only scanned when a term needs them.
 */
#include "debugmode/session.h"

#include "engine/dtype.h"
#include "engine/error.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { Q_MIN, Q_MAX, Q_MEAN, Q_STD, Q_NAN, Q_INF, Q_NUMEL, Q_NDIM, Q_SHAPE };
enum { C_GT, C_GE, C_LT, C_LE, C_EQ, C_NE };

typedef struct term {
	int quantity, dim, cmp;
	double value;
	bool or_before; /* this term starts a new clause */
} term_t;

struct dalic_debug_cond {
	char *node;
	term_t *terms;
	int num_terms;
	bool values, std; /* what evaluation must compute */
};

typedef struct lexer {
	const char *text, *p;
} lexer_t;

static void cond_skip_space(lexer_t *l)
{
	while (isspace((unsigned char)*l->p))
		l->p++;
}

static int cond_syntax(lexer_t *l, const char *what)
{
	return dalic_fail(DALIC_EINVAL, "cond: %s at column %d of \"%s\"", what,
	                  (int)(l->p - l->text) + 1, l->text);
}

/* Reads a cond_word of letters, digits and underscores into buf. */
static bool cond_word(lexer_t *l, char *buf, size_t n)
{
	cond_skip_space(l);
	size_t k = 0;
	while ((isalnum((unsigned char)*l->p) || *l->p == '_') && k + 1 < n)
		buf[k++] = *l->p++;
	buf[k] = 0;
	return k > 0;
}

static bool cond_accept(lexer_t *l, const char *tok)
{
	cond_skip_space(l);
	size_t n = strlen(tok);
	if (strncasecmp(l->p, tok, n))
		return false;
	/* a cond_word must end there: "and" is not the start of "android" */
	if (isalpha((unsigned char)tok[0]) && (isalnum((unsigned char)l->p[n]) || l->p[n] == '_'))
		return false;
	l->p += n;
	return true;
}

static int cond_parse_quantity(lexer_t *l, term_t *t)
{
	static const struct {
		const char *name;
		int q;
	} names[] = {{"min", Q_MIN},  {"max", Q_MAX},       {"mean", Q_MEAN},     {"std", Q_STD},
	             {"nan", Q_NAN},  {"nans", Q_NAN},      {"nan_count", Q_NAN}, {"inf", Q_INF},
	             {"infs", Q_INF}, {"inf_count", Q_INF}, {"numel", Q_NUMEL},   {"size", Q_NUMEL},
	             {"ndim", Q_NDIM}};
	const char *start = l->p;
	char w[32];
	if (!cond_word(l, w, sizeof w))
		return cond_syntax(l, "expected a quantity (min, max, mean, std, nan, inf, numel, "
		                 "ndim, shape[d]) or 'any'");
	if (!strcasecmp(w, "shape")) {
		char *end;
		cond_skip_space(l);
		if (*l->p != '[')
			return cond_syntax(l, "expected '[' after shape");
		t->dim = (int)strtol(l->p + 1, &end, 10);
		if (end == l->p + 1 || *end != ']' || t->dim < 0 || t->dim >= DALIC_MAX_NDIM)
			return cond_syntax(l, "expected a dimension index such as shape[0]");
		l->p = end + 1;
		t->quantity = Q_SHAPE;
		return DALIC_OK;
	}
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcasecmp(w, names[i].name)) {
			t->quantity = names[i].q;
			return DALIC_OK;
		}
	l->p = start;
	cond_skip_space(l);
	return cond_syntax(l, "unknown quantity");
}

static int cond_parse_term(lexer_t *l, term_t *t)
{
	if (cond_accept(l, "any")) {
		char w[16];
		if (!cond_word(l, w, sizeof w) || (strcasecmp(w, "nan") && strcasecmp(w, "inf")))
			return cond_syntax(l, "expected NaN or Inf after 'any'");
		t->quantity = strcasecmp(w, "nan") ? Q_INF : Q_NAN;
		t->cmp = C_GT;
		t->value = 0;
		return DALIC_OK;
	}
	int rc = cond_parse_quantity(l, t);
	if (rc)
		return rc;
	static const struct {
		const char *tok;
		int cmp;
	} ops[] = {{">=", C_GE}, {"<=", C_LE}, {"==", C_EQ},
	           {"!=", C_NE}, {">", C_GT},  {"<", C_LT}};
	bool found = false;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0] && !found; i++)
		if (cond_accept(l, ops[i].tok)) {
			t->cmp = ops[i].cmp;
			found = true;
		}
	if (!found)
		return cond_syntax(l, "expected a comparison (>, >=, <, <=, ==, !=)");
	cond_skip_space(l);
	char *end;
	t->value = strtod(l->p, &end);
	if (end == l->p)
		return cond_syntax(l, "expected a number");
	l->p = end;
	return DALIC_OK;
}

/* "NODE:" prefix: a name followed by a colon (names never contain spaces or colons). */
static int cond_parse_node(lexer_t *l, dalic_debug_cond_t *c)
{
	cond_skip_space(l);
	const char *colon = strchr(l->p, ':');
	if (!colon)
		return DALIC_OK;
	const char *end = colon;
	while (end > l->p && isspace((unsigned char)end[-1]))
		end--;
	for (const char *q = l->p; q < end; q++)
		if (isspace((unsigned char)*q))
			return DALIC_OK; /* "shape[0:" is not a node name; let the terms fail */
	if (end == l->p)
		return cond_syntax(l, "expected a data node name before ':'");
	c->node = strndup(l->p, (size_t)(end - l->p));
	if (!c->node)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	l->p = colon + 1;
	return DALIC_OK;
}

int dalic_debug_cond_parse(const char *text, dalic_debug_cond_t **out)
{
	*out = NULL;
	dalic_debug_cond_t *c = calloc(1, sizeof *c);
	lexer_t l = {text, text};
	size_t cap = strlen(text) / 2 + 2; /* every term takes at least two characters */
	if (!c || !(c->terms = calloc(cap, sizeof *c->terms))) {
		free(c);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	int rc = cond_parse_node(&l, c);
	bool or_next = false;
	while (!rc) {
		term_t *t = &c->terms[c->num_terms];
		rc = cond_parse_term(&l, t);
		if (rc)
			break;
		t->or_before = or_next;
		c->num_terms++;
		c->values |= t->quantity <= Q_INF;
		c->std |= t->quantity == Q_STD;
		if (cond_accept(&l, "and") || cond_accept(&l, "&&")) {
			or_next = false;
		} else if (cond_accept(&l, "or") || cond_accept(&l, "||")) {
			or_next = true;
		} else {
			cond_skip_space(&l);
			if (*l.p)
				rc = cond_syntax(&l, "expected 'and', 'or' or the end");
			break;
		}
		if ((size_t)c->num_terms == cap)
			rc = cond_syntax(&l, "too many terms");
	}
	if (rc) {
		dalic_debug_cond_free(c);
		return rc;
	}
	*out = c;
	return DALIC_OK;
}

void dalic_debug_cond_free(dalic_debug_cond_t *c)
{
	if (!c)
		return;
	free(c->node);
	free(c->terms);
	free(c);
}

const char *dalic_debug_cond_node(const dalic_debug_cond_t *c)
{
	return c->node;
}

static bool cond_compare(double a, int cmp, double b)
{
	switch (cmp) {
	case C_GT:
		return a > b;
	case C_GE:
		return a >= b;
	case C_LT:
		return a < b;
	case C_LE:
		return a <= b;
	case C_EQ:
		return a == b;
	default:
		return a != b;
	}
}

static bool cond_term_holds(const term_t *t, const dalic_batch_t *b, int i,
                       const dalic_debug_stats_t *st)
{
	double v;
	switch (t->quantity) {
	case Q_MIN:
		v = st->min;
		break;
	case Q_MAX:
		v = st->max;
		break;
	case Q_MEAN:
		v = st->mean;
		break;
	case Q_STD:
		v = st->std;
		break;
	case Q_NAN:
		v = (double)st->nan_count;
		break;
	case Q_INF:
		v = (double)st->inf_count;
		break;
	case Q_NUMEL:
		v = (double)dalic_batch_sample_elems(b, i);
		break;
	case Q_NDIM:
		v = b->ndim;
		break;
	default:
		if (t->dim >= b->ndim)
			return false;
		v = (double)dalic_batch_shape(b, i)[t->dim];
	}
	return !isnan(v) && cond_compare(v, t->cmp, t->value);
}

int dalic_debug_cond_eval(const dalic_debug_cond_t *c, const dalic_batch_t *b)
{
	bool numeric = dalic_dtype_is_numeric(b->dtype);
	for (int i = 0; i < b->num_samples; i++) {
		dalic_debug_stats_t st = {.min = NAN, .max = NAN, .mean = NAN, .std = NAN};
		if (c->values && numeric)
			dalic_debug_sample_stats(b, i, c->std, &st);
		/* or-of-ands, left to right */
		bool any = false, all = true;
		for (int k = 0; k < c->num_terms; k++) {
			if (c->terms[k].or_before) {
				any |= all;
				all = true;
			}
			all = all && cond_term_holds(&c->terms[k], b, i, &st);
		}
		if (any || all)
			return i;
	}
	return -1;
}
