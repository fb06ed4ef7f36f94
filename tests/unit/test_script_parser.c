/* Unit tests: the pipeline-script parser (syntax tree shape, precedence, statements, the
 * return rewrite and the liveness facts conditionals rely on). */
#include "tests/testlib.h"

#include "frontend/script/py/pyast.h"
#include "frontend/script/py/pyval.h"

#include <stdio.h>
#include <string.h>

TestSuite(script_parser, .timeout = 20);

static pyarena_t *script_parser_arena;

static pyast_t *script_parser_parse(const char *text)
{
	script_parser_arena = dalic_pyarena_new(0);
	static pysrc_t src;
	src = (pysrc_t){"t.py", text, strlen(text)};
	pyast_t *m;
	ASSERT_OK(dalic_pyparse_module(script_parser_arena, &src, &m));
	return m;
}

/* S-expression rendering of an expression. */
static void script_parser_show(char *buf, size_t n, const pynode_t *e)
{
	size_t k = strlen(buf);
	switch (e->kind) {
	case N_NAME:
		snprintf(buf + k, n - k, "%s", e->name);
		break;
	case N_INT:
		snprintf(buf + k, n - k, "%lld", (long long)e->i);
		break;
	case N_STR:
		snprintf(buf + k, n - k, "'%s'", e->str.s);
		break;
	case N_BINOP:
		snprintf(buf + k, n - k, "(%s ", dalic_pylex_op_text(e->bin.op));
		script_parser_show(buf, n, e->bin.left);
		strcat(buf, " ");
		script_parser_show(buf, n, e->bin.right);
		strcat(buf, ")");
		break;
	case N_UNARY:
		snprintf(buf + k, n - k, "(%s ",
		         (const char *[]){"neg", "pos", "inv", "not"}[e->unary.op]);
		script_parser_show(buf, n, e->unary.operand);
		strcat(buf, ")");
		break;
	case N_BOOLOP:
		snprintf(buf + k, n - k, "(%s", e->boolop.op == B_AND ? "and" : "or");
		for (int i = 0; i < e->boolop.values.n; i++) {
			strcat(buf, " ");
			script_parser_show(buf, n, e->boolop.values.v[i]);
		}
		strcat(buf, ")");
		break;
	case N_COMPARE:
		strcat(buf, "(cmp ");
		script_parser_show(buf, n, e->cmp.left);
		for (int i = 0; i < e->cmp.rest.n; i++) {
			snprintf(buf + strlen(buf), n - strlen(buf), " %d ", e->cmp.ops[i]);
			script_parser_show(buf, n, e->cmp.rest.v[i]);
		}
		strcat(buf, ")");
		break;
	case N_CALL:
		strcat(buf, "(call ");
		script_parser_show(buf, n, e->call.func);
		for (int i = 0; i < e->call.args.n; i++) {
			strcat(buf, " ");
			script_parser_show(buf, n, e->call.args.v[i]);
		}
		for (int i = 0; i < e->call.kwargs.n; i++) {
			snprintf(buf + strlen(buf), n - strlen(buf), " %s=",
			         e->call.kwargs.v[i]->kw.arg ? e->call.kwargs.v[i]->kw.arg : "**");
			script_parser_show(buf, n, e->call.kwargs.v[i]->kw.value);
		}
		strcat(buf, ")");
		break;
	case N_ATTR:
		script_parser_show(buf, n, e->attr.value);
		snprintf(buf + strlen(buf), n - strlen(buf), ".%s", e->attr.attr);
		break;
	case N_SUBSCRIPT:
		script_parser_show(buf, n, e->sub.value);
		strcat(buf, "[");
		script_parser_show(buf, n, e->sub.index);
		strcat(buf, "]");
		break;
	case N_SLICE:
		strcat(buf, "slice");
		break;
	case N_STARRED:
		strcat(buf, "*");
		script_parser_show(buf, n, e->starred.value);
		break;
	case N_TUPLE:
	case N_LIST:
		strcat(buf, e->kind == N_TUPLE ? "(tuple" : "(list");
		for (int i = 0; i < e->elts.n; i++) {
			strcat(buf, " ");
			script_parser_show(buf, n, e->elts.v[i]);
		}
		strcat(buf, ")");
		break;
	case N_IFEXP:
		strcat(buf, "(ifexp ");
		script_parser_show(buf, n, e->ifexp.test);
		strcat(buf, " ");
		script_parser_show(buf, n, e->ifexp.body);
		strcat(buf, " ");
		script_parser_show(buf, n, e->ifexp.orelse);
		strcat(buf, ")");
		break;
	default:
		snprintf(buf + k, n - k, "<%s>", dalic_pyast_kind_name(e->kind));
	}
}

static const char *script_parser_expr(const char *text)
{
	static char src[256], buf[1024];
	snprintf(src, sizeof src, "%s\n", text);
	pyast_t *m = script_parser_parse(src);
	cr_assert_eq(m->body.n, 1);
	cr_assert_eq(m->body.v[0]->kind, S_EXPR);
	buf[0] = 0;
	script_parser_show(buf, sizeof buf, m->body.v[0]->expr.value);
	dalic_pyarena_free(script_parser_arena);
	return buf;
}

Test(script_parser, precedence_and_associativity)
{
	cr_expect_str_eq(script_parser_expr("a + b * c - d"), "(- (+ a (* b c)) d)");
	cr_expect_str_eq(script_parser_expr("-a ** -b"), "(neg (** a (neg b)))");
	cr_expect_str_eq(script_parser_expr("a | b ^ c & d << 1"), "(| a (^ b (& c (<< d 1))))");
	cr_expect_str_eq(script_parser_expr("not a and b or c"), "(or (and (not a) b) c)");
	cr_expect_str_eq(script_parser_expr("a < b <= c is not d not in e"),
	                 "(cmp a 2 b 3 c 9 d 7 e)");
	cr_expect_str_eq(script_parser_expr("x if c else y if d else z"),
	                 "(ifexp c x (ifexp d y z))");
	cr_expect_str_eq(script_parser_expr("a // b % c / d"), "(/ (% (// a b) c) d)");
}

Test(script_parser, calls_subscripts_attributes)
{
	cr_expect_str_eq(
	    script_parser_expr("fn.readers.file(x, *rest, file_root=r, **kw)[0].gpu()"),
	    "(call (call fn.readers.file x *rest file_root=r **=kw)[0].gpu)");
	cr_expect_str_eq(script_parser_expr("x[1:2, ::3]"), "x[(tuple slice slice)]");
	cr_expect_str_eq(script_parser_expr("f(a)(b)"), "(call (call f a) b)");
	cr_expect_str_eq(script_parser_expr("(1,)"), "(tuple 1)");
	cr_expect_str_eq(script_parser_expr("[*a, b]"), "(list *a b)");
	cr_expect_str_eq(script_parser_expr("'a' 'b' \"c\""), "'abc'");
}

Test(script_parser, statements_and_positions)
{
	pyast_t *m = script_parser_parse("import nvidia.dali.fn as fn, os\n"
	                   "from nvidia.dali import (pipeline_def,\n    types as t)\n"
	                   "@pipeline_def(batch_size=2)\n"
	                   "def pipe(a, b=1, *args, c, **kw) -> int:\n"
	                   "    x, *y = a\n"
	                   "    x += 1; y: int = 2\n"
	                   "    with open(f) as h, g:\n"
	                   "        pass\n"
	                   "    for i in range(3):\n"
	                   "        continue\n"
	                   "    else:\n"
	                   "        del x\n"
	                   "    try:\n"
	                   "        raise ValueError('x') from None\n"
	                   "    except (KeyError, ValueError) as e:\n"
	                   "        assert e, 'msg'\n"
	                   "    finally:\n"
	                   "        global q\n"
	                   "    while False: break\n"
	                   "    return lambda v, w=2: v + w\n"
	                   "class C(B, metaclass=M):\n"
	                   "    z = [i * 2 for i in range(3) if i]\n");
	cr_assert_eq(m->body.n, 4);
	const pynode_t *imp = m->body.v[0];
	cr_expect_eq(imp->kind, S_IMPORT);
	cr_expect_str_eq(imp->import.names[0].name, "nvidia.dali.fn");
	cr_expect_str_eq(imp->import.names[0].asname, "fn");
	const pynode_t *from = m->body.v[1];
	cr_expect_eq(from->from.n, 2);
	cr_expect_str_eq(from->from.names[1].asname, "t");
	const pynode_t *def = m->body.v[2];
	cr_expect_eq(def->kind, S_DEF);
	cr_expect_eq(def->line, 5);
	cr_expect_eq(def->def.decorators.n, 1);
	cr_expect_eq(def->def.params.n, 5);
	cr_expect_eq(def->def.params.v[2].kind, P_VARARGS);
	cr_expect_eq(def->def.params.v[3].kind, P_KWONLY);
	cr_expect_eq(def->def.params.v[4].kind, P_VARKW);
	cr_expect_eq(def->def.body.n, 8);
	cr_expect_eq(def->def.body.v[1]->kind, S_AUGASSIGN);
	cr_expect_eq(def->def.body.v[2]->kind, S_ANNASSIGN);
	cr_expect_eq(def->def.body.v[3]->with.items.n, 2);
	cr_expect_eq(def->def.body.v[5]->try_.nhandlers, 1);
	cr_expect_eq(def->def.body.v[5]->try_.finalbody.n, 1);
	cr_expect(def->def.info->uses_return);
	const pynode_t *cls = m->body.v[3];
	cr_expect_eq(cls->kind, S_CLASS);
	cr_expect_eq(cls->cls.bases.n, 1);
	cr_expect_eq(cls->cls.keywords.n, 1);
	cr_expect_eq(cls->cls.body.v[0]->assign.value->kind, N_LISTCOMP);
	dalic_pyarena_free(script_parser_arena);
}

Test(script_parser, fstrings_split_into_parts)
{
	pyast_t *m = script_parser_parse("s = f'a{x!r:>{w}}b{{c}}{y + 1}'\n");
	const pynode_t *f = m->body.v[0]->assign.value;
	cr_assert_eq(f->kind, N_FSTRING);
	cr_assert_eq(f->parts.n, 4);
	cr_expect_str_eq(f->parts.v[0]->str.s, "a");
	cr_expect_eq(f->parts.v[1]->kind, N_FVALUE);
	cr_expect_eq(f->parts.v[1]->fvalue.conv, 'r');
	cr_expect_eq(f->parts.v[1]->fvalue.spec->parts.n, 2);
	cr_expect_str_eq(f->parts.v[2]->str.s, "b{c}");
	cr_expect_eq(f->parts.v[3]->fvalue.value->kind, N_BINOP);
	cr_expect_eq(f->parts.v[3]->fvalue.value->col, 25, "located inside the string");
	dalic_pyarena_free(script_parser_arena);
}

Test(script_parser, elif_nests_and_returns_are_rewritten)
{
	pyast_t *m = script_parser_parse("def f(c, d):\n"
	                   "    if c:\n"
	                   "        return 1\n"
	                   "    elif d:\n"
	                   "        x = 2\n"
	                   "    y = 3\n"
	                   "    return y\n");
	const pynode_t *def = m->body.v[0];
	/* after `if c: return`, the rest moves into the else branch (AutoGraph's rewrite) */
	cr_assert_eq(def->def.body.n, 1);
	const pynode_t *outer = def->def.body.v[0];
	cr_assert_eq(outer->if_.orelse.n, 3);
	cr_expect_eq(outer->if_.orelse.v[0]->kind, S_IF);
	cr_expect_eq(outer->if_.orelse.v[0]->line, 4);
	cr_expect_eq(outer->if_.orelse.v[2]->kind, S_RETURN);
	dalic_pyarena_free(script_parser_arena);
}

static const char *script_parser_names(const char **v, int n)
{
	static char buf[256];
	buf[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "", v[i]);
	return buf;
}

Test(script_parser, liveness_picks_the_merged_variables)
{
	pyast_t *m = script_parser_parse("def f(p, x):\n"
	                   "    tmp = 0\n"
	                   "    if p:\n"
	                   "        b = x\n"
	                   "        a = x\n"
	                   "        tmp = 1\n"
	                   "        local = 2\n"
	                   "    else:\n"
	                   "        b = 3\n"
	                   "        a = 4\n"
	                   "    print(tmp)\n"
	                   "    if p:\n"
	                   "        return a\n"
	                   "    else:\n"
	                   "        return b\n");
	const pynode_t *def = m->body.v[0];
	const pyif_info_t *first = def->def.body.v[1]->if_.info;
	cr_assert_not_null(first);
	cr_expect_str_eq(script_parser_names(first->outputs, first->noutputs), "a,b,tmp");
	cr_expect_eq(first->ninputs_only, 0);
	cr_expect(!first->has_return);
	const pyif_info_t *second = def->def.body.v[3]->if_.info;
	cr_expect_str_eq(script_parser_names(second->outputs, second->noutputs), "do_return,retval_");
	cr_expect(second->has_return);
	dalic_pyarena_free(script_parser_arena);
}

Test(script_parser, loops_keep_variables_live)
{
	pyast_t *m = script_parser_parse("def f(p, xs):\n"
	                   "    acc = 0\n"
	                   "    for x in xs:\n"
	                   "        if p:\n"
	                   "            acc = acc + x\n"
	                   "            t = 1\n"
	                   "    return 0\n");
	const pynode_t *loop = m->body.v[0]->def.body.v[1];
	const pyif_info_t *info = loop->for_.body.v[0]->if_.info;
	cr_expect_str_eq(script_parser_names(info->outputs, info->noutputs), "acc", "read by the next iteration");
	dalic_pyarena_free(script_parser_arena);
}
