/* Robustness tests: hostile or malformed scripts end with a status and a message, never a
 * crash or a hang (inputs in the spirit of the parser / evaluator fuzzing campaigns). */
#include "tests/testlib/script.h"

#include <criterion/redirect.h>

TestSuite(script_robust, .timeout = 20);

static int script_robust_load_status(const char *text, size_t len)
{
	const char *path = tl_write_temp("script", ".py", "");
	tl_write_file(path, text, len);
	dalic_graphdef_t *g = NULL;
	int rc = dalic_script_load(path, NULL, &g);
	unlink(path);
	dalic_graphdef_free(g);
	if (rc)
		cr_expect_neq(dalic_last_error()[0], 0, "a failure always has a message");
	return rc;
}

#define S(text) text, sizeof(text) - 1

static const struct {
	const char *text;
	size_t len;
} inputs[] = {
    {S("")},
    {S("\xEF\xBB\xBFx = 1\r\nprint(x)\r\n")},
    {S("x = (")},
    {S("'''")},
    {S("f'{'")},
    {S("f'{x!z}'")},
    {S("f'{{}}{1:{2:{3}}}'")},
    {S("def f(:\n")},
    {S("class\n")},
    {S("if 1:\n\tif 2:\n        pass\n")},
    {S("x = \\\n")},
    {S("x = 1 if 2\n")},
    {S("lambda: (yield)\n")},
    {S("a, *b, *c = 1, 2, 3\n")},
    {S("del f()\n")},
    {S("x = 0x\n")},
    {S("x = 1e\n")},
    {S("x = '\\x4'\n")},
    {S("@\ndef f(): pass\n")},
    {S("with a as (b, c): pass\n")},
    {S("x = [1] * 10**9\n")},
    {S("x = 'ab' * 10**9\n")},
    {S("x = 2 ** 10000\n")},
    {S("x = -(-9223372036854775807 - 1)\n")},
    {S("x = 1 // 0\n")},
    {S("x = 1.0 % 0\n")},
    {S("x = range(10**12)\n")},
    {S("def f(): return f()\nf()\n")},
    {S("x = [1]\nwhile x:\n    x\n")},
    {S("while True: pass\n")},
    {S("l = []\nl.append(l)\nprint(l, l == l, {str(l): 1})\n")},
    {S("d = {}\nd[1] = d\nprint(d)\n")},
    {S("t = ()\nfor i in range(5000):\n    t = (t,)\nprint(hash(t) if 0 else {t: 1})\n")},
    {S("x = "
       "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
       "\n")},
    {S("class A(A): pass\n")},
    {S("class A:\n    def __init__(self): self.x = self\nA().x.x.x.y\n")},
    {S("super()\n")},
    {S("import nvidia.dali.fn as fn\nfn()\nfn.readers()\nfn.readers.file(1, 2, 3)\n")},
    {S("from nvidia.dali import *\nPipeline(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)\n")},
    {S("from nvidia.dali import pipeline_def\n@pipeline_def\ndef p(**kw): pass\np()\n")},
    {S("from nvidia.dali import pipeline_def, fn\n@pipeline_def(enable_conditionals=True)\n"
       "def p():\n    if fn.random.coin_flip(): return 1\np(batch_size=1)\n")},
    {S("from nvidia.dali import pipeline_def, fn\n@pipeline_def(batch_size=1)\ndef p():\n"
       "    x = fn.random.uniform()\n    return [x] * 3, {x: x}\np()\n")},
    {S("from nvidia.dali import pipeline_def, fn, types\n"
       "@pipeline_def(batch_size=1, enable_conditionals=True)\ndef p():\n"
       "    x = fn.random.coin_flip(dtype=types.BOOL)\n    l = []\n    l.append(l)\n"
       "    if x:\n        y = l\n    else:\n        y = l\n    return x, y\np()\n")},
    {S("from nvidia.dali import pipeline_def, fn, types\n"
       "@pipeline_def(batch_size=1, enable_conditionals=True)\ndef p():\n"
       "    x = fn.random.coin_flip(dtype=types.BOOL)\n"
       "    for i in range(3):\n        if x:\n            break\n    return x\np()\n")},
    {S("import os\nos.environ['X'] = 1\nprint(os.path.join(1, 2))\n")},
    {S("print('%s %s' % (1,))\nprint('{0} {1}'.format(1))\nprint(f'{1:Q}')\n")},
    {S("print('%*d' % (5, 1), '%(a)s' % {'a': 1}, '{:,}'.format(10**12))\n")},
    {S("x = 1\nx.y = 2\n(1).z\nNone()\n[][0]\n{}[1]\n")},
    {S("try:\n    raise\nexcept:\n    pass\nfinally:\n    raise ValueError\n")},
    {S("a = b = c = d = e = f = g = h = 1\nprint(a < b < c < d < e < f < g < h)\n")},
    {S("x = [y for y in range(3) for z in range(y) if z if y]\nprint(x)\n")},
    {S("def g(*, a): return a\ng(1)\ng(b=2)\ng()\n")},
    {S("import nvidia.dali.types as types\nprint(types.FLOAT, repr(types.RGB), "
       "types.DALIInterpType.INTERP_LINEAR.value, types.NCHW)\n")},
    {S("x = \x00\n")},
    {S("\xff\xfe\x00\x00")},
    {S("\"\\N{LATIN SMALL LETTER A}\"\n")},
};

Test(script_robust, malformed_and_hostile_scripts_end_with_a_status, .init = cr_redirect_stdout)
{
	for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
		int rc = script_robust_load_status(inputs[i].text, inputs[i].len);
		cr_expect_neq(rc, DALIC_OK, "input %zu creates no pipeline, so it cannot succeed",
		              i);
	}
}

Test(script_robust, a_script_that_is_not_text)
{
	cr_expect_eq(script_robust_load_status("x = 1\n\0\n", 8), DALIC_EPARSE);
	EXPECT_ERROR_HAS("is not a text file");
}
