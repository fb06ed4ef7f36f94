/* Unit tests: sealed calls into a script after its run (pycall.h) — what python_function
 * does while a pipeline runs: many calls leave the arena as it was, reading module state is
 * fine and changing it is an error naming the function, errors and limits of one call leave
 * the next one intact. */
#include "tests/testlib/pycore.h"

#include "frontend/script/py/pycall.h"
#include "frontend/script/py/pydict.h"

TestSuite(script_pycall, .timeout = 30);

typedef struct pycall_io {
	int64_t in;
	pyval_t *out_value;
	int64_t out;
} pycall_io_t;

static int pycall_args_one(pyinterp_t *I, void *ctx, pyargs_t *args)
{
	pycall_io_t *io = ctx;
	pyval_t **pos = dalic_pyarena_alloc(I->a, sizeof *pos);
	if (!pos || !(pos[0] = dalic_pyval_int(I->a, io->in)))
		return DALIC_ENOMEM;
	args->pos = pos;
	args->npos = 1;
	return DALIC_OK;
}

static int pycall_take_int(pyinterp_t *I, void *ctx, pyval_t *r)
{
	pycall_io_t *io = ctx;
	if (!dalic_pyval_as_int(r, &io->out))
		return dalic_fail(DALIC_EINVAL, "not an int: %s", dalic_pyval_type_name(r));
	return DALIC_OK;
}

static int pycall_call(tl_py_t *r, const char *fname, int64_t in, int64_t *out)
{
	pycall_io_t io = {.in = in};
	int rc = dalic_pycall_run(&r->I, tl_py_global(r, fname), fname, pycall_args_one,
	                          pycall_take_int, &io);
	*out = io.out;
	return rc;
}

Test(script_pycall, calls_leave_the_arena_as_it_was)
{
	tl_py_t r;
	tl_py_run(&r, "SCALE = 3\n"
	              "table = {i: i * i for i in range(10)}\n"
	              "class Acc:\n"
	              "    def __init__(self):\n"
	              "        self.items = []\n"
	              "def work(x):\n"
	              "    acc = Acc()\n"
	              "    for k in range(50):\n"
	              "        acc.items.append(str(k) * 3)\n"
	              "    def gen():\n"
	              "        yield x\n"
	              "        yield x + 1\n"
	              "    g = gen()\n"
	              "    first = next(g)\n"
	              "    return first * SCALE + table[x % 10] + len(acc.items)\n");
	size_t before = dalic_pyarena_used(r.I.a);
	for (int i = 0; i < 2000; i++) {
		int64_t out;
		ASSERT_OK(pycall_call(&r, "work", i, &out));
		cr_assert_eq(out, i * 3 + (i % 10) * (i % 10) + 50, "call %d", i);
		/* nothing of the call stays: its objects, its unfinished generator */
		cr_assert_eq(dalic_pyarena_used(r.I.a), before, "call %d", i);
		cr_assert_eq(r.I.nlive_gens, 0);
	}
	tl_py_close(&r);
}

Test(script_pycall, changing_module_state_is_an_error_naming_the_function)
{
	tl_py_t r;
	tl_py_run(&r, "seen = []\n"
	              "count = 0\n"
	              "cfg = {'k': 1}\n"
	              "class Box:\n"
	              "    pass\n"
	              "box = Box()\n"
	              "def appends(x):\n"
	              "    seen.append(x)\n"
	              "    return x\n"
	              "def counts(x):\n"
	              "    global count\n"
	              "    count += 1\n"
	              "    return x\n"
	              "def sets_item(x):\n"
	              "    cfg['k'] = x\n"
	              "    return x\n"
	              "def sets_attr(x):\n"
	              "    box.value = x\n"
	              "    return x\n"
	              "def imports(x):\n"
	              "    import json\n"
	              "    return x\n"
	              "def own_list(x):\n"
	              "    mine = list(seen)\n"
	              "    mine.append(x)\n"
	              "    d = dict(cfg)\n"
	              "    d['k'] = x\n"
	              "    return len(mine) + d['k']\n");
	static const struct {
		const char *fn, *what, *where;
	} cases[] = {
	    {"appends", "a list", "core.py:8:5"},
	    {"counts", "a global variable", "core.py:12:5"},
	    {"sets_item", "a dict", "core.py:15:5"},
	    {"sets_attr", "an attribute of an object", "core.py:18:5"},
	    {"imports", "the imported modules", "core.py:21:12"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int64_t out;
		EXPECT_STATUS(pycall_call(&r, cases[i].fn, 5, &out), DALIC_EUNSUPPORTED, "%s",
		              cases[i].fn);
		char want[256];
		snprintf(want, sizeof want, "%s: %s changes %s made outside the function",
		         cases[i].where, cases[i].fn, cases[i].what);
		cr_expect(tl_text_has(dalic_last_error(), want, true), "%s: %s", cases[i].fn,
		          dalic_last_error());
	}
	/* the module is as it was, and a function changing only its own values is fine */
	cr_expect_str_eq(tl_py_str(&r, "seen"), "[]");
	cr_expect_eq(tl_py_global(&r, "count")->i, 0);
	int64_t out;
	ASSERT_OK(pycall_call(&r, "own_list", 7, &out));
	cr_expect_eq(out, 8);
	tl_py_close(&r);
}

Test(script_pycall, errors_and_limits_of_one_call_leave_the_next_intact)
{
	tl_py_t r;
	tl_py_run(&r, "def parse(x):\n"
	              "    if x < 0:\n"
	              "        return int('bad')\n"
	              "    return x + 1\n"
	              "def deep(x):\n"
	              "    return deep(x + 1)\n"
	              "def spin(x):\n"
	              "    while True:\n"
	              "        x += 1\n"
	              "def returns_text(x):\n"
	              "    return 'text'\n");
	int64_t out;
	EXPECT_STATUS(pycall_call(&r, "parse", -1, &out), DALIC_EINVAL);
	EXPECT_ERROR_HAS("core.py:3:16: ValueError: invalid literal for int() with base 10: 'bad'");
	ASSERT_OK(pycall_call(&r, "parse", 41, &out));
	cr_expect_eq(out, 42);
	EXPECT_STATUS(pycall_call(&r, "deep", 0, &out), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("RecursionError");
	EXPECT_STATUS(pycall_call(&r, "spin", 0, &out), DALIC_EUNSUPPORTED);
	EXPECT_ERROR_HAS("loop runs more than");
	/* limits are counted afresh: the next call is not stopped by the last one's */
	ASSERT_OK(pycall_call(&r, "parse", 1, &out));
	cr_expect_eq(out, 2);
	EXPECT_STATUS(pycall_call(&r, "returns_text", 1, &out), DALIC_EINVAL);
	EXPECT_ERROR_HAS("not an int: str");
	cr_expect_eq(r.I.fatal, false);
	tl_py_close(&r);
}
