/* Unit tests: Python's set in pipeline scripts (py/pyset.c) — set(), literals, set
 * comprehensions, `in`, the operators and methods wild modules use, their errors — and
 * hasattr(x, "__len__") on built-in containers. The values are computed in the script and
 * read back from a constant's arguments; expected values are Python's, worked by hand. */
#include "tests/testlib/script.h"

TestSuite(script_sets, .timeout = 20);

/* The script's `v` (a list of ints) as fn.constant's idata. */
static const char *sets_eval(const char *body)
{
	char src[4096];
	snprintf(src, sizeof src,
	         "import nvidia.dali.fn as fn\n"
	         "from nvidia.dali import pipeline_def\n"
	         "%s"
	         "@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"
	         "def p():\n"
	         "    return fn.constant(idata=v)\n"
	         "pipe = p()\n",
	         body);
	dalic_graphdef_t *g = tl_script_load(src, NULL);
	const char *r = tl_def_arg(g, 0, "idata");
	dalic_graphdef_free(g);
	return r;
}

Test(script_sets, literals_constructors_membership_and_operators)
{
	cr_expect_str_eq(sets_eval("s = set()\n"
	                           "s.add(3)\n"
	                           "s.add(1)\n"
	                           "s.add(3)\n"
	                           "t = {1, 2, 5}\n"
	                           "u = {x * 2 for x in range(4)}\n"
	                           "v = [len(s), 1 in s, 4 in s, 4 not in s, len(set([1, 1, 2])),\n"
	                           "     len(set()), len(u), 6 in u]\n"),
	                 "[2, 1, 0, 1, 2, 0, 4, 1]");
	cr_expect_str_eq(sets_eval("s = {3, 1}\n"
	                           "t = {1, 2, 5}\n"
	                           "v = sorted(s | t) + [0] + sorted(t & {2, 5, 9}) + [0] +\\\n"
	                           "    sorted(t - s) + [0] + sorted(t ^ s)\n"),
	                 "[1, 2, 3, 5, 0, 2, 5, 0, 2, 5, 0, 2, 3, 5]");
	cr_expect_str_eq(sets_eval("s = {3, 1}\n"
	                           "v = [s <= {1, 2, 3}, s < s, s >= {1}, s == {1, 3}, s != {1},\n"
	                           "     {1, 2} == {2, 1}, bool(set()), bool(s),\n"
	                           "     isinstance(s, set), isinstance([], set)]\n"),
	                 "[1, 0, 1, 1, 1, 1, 0, 1, 1, 0]");
}

Test(script_sets, methods_as_modules_use_them)
{
	/* the de-duplication loop of file-list helpers, then the methods */
	cr_expect_str_eq(sets_eval("seen = set()\n"
	                           "order = []\n"
	                           "for k in [4, 2, 4, 7, 2]:\n"
	                           "    if k not in seen:\n"
	                           "        seen.add(k)\n"
	                           "        order.append(k)\n"
	                           "t = seen.union([9], (10,))\n"
	                           "t.update({11})\n"
	                           "t.discard(99)\n"
	                           "t.remove(4)\n"
	                           "c = t.copy()\n"
	                           "c.clear()\n"
	                           "v = order + sorted(t) + [len(c),\n"
	                           "     len(t.intersection([2, 7, 8])), len(t.difference({2})),\n"
	                           "     len(seen.symmetric_difference([4, 5])),\n"
	                           "     seen.issubset(range(10)), seen.issuperset([2]),\n"
	                           "     seen.isdisjoint([5, 6]), {1}.pop()]\n"),
	                 "[4, 2, 7, 2, 7, 9, 10, 11, 0, 2, 4, 3, 1, 1, 1, 1]");
}

#define SETS_PIPE(body)                                                                            \
	"from nvidia.dali import pipeline_def\n"                                                   \
	"@pipeline_def(batch_size=1, num_threads=1, device_id=None)\n"                             \
	"def p():\n" body "    return None\n"                                                      \
	"pipe = p()\n"

Test(script_sets, errors_are_pythons)
{
	/* inside the pipeline function, where no statement is skipped as display code */
	const char *m = tl_script_error(SETS_PIPE("    s = {[1], 2}\n"), DALIC_EINVAL);
	cr_expect(strstr(m, "SCRIPT:4:9: TypeError: unhashable type: 'list'") == m, "%s", m);
	m = tl_script_error(SETS_PIPE("    s = {1}\n"
	                              "    s.remove(7)\n"),
	                    DALIC_EINVAL);
	cr_expect(strstr(m, "SCRIPT:5:5: KeyError: 7") == m, "%s", m);
	m = tl_script_error(SETS_PIPE("    d = {set(): 1}\n"), DALIC_EINVAL);
	cr_expect(strstr(m, "unhashable type: 'set'"), "%s", m);
	/* caught as Python catches them */
	cr_expect_str_eq(sets_eval("try:\n"
	                           "    set().pop()\n"
	                           "    v = [0]\n"
	                           "except KeyError:\n"
	                           "    v = [1]\n"),
	                 "[1]");
}

Test(script_sets, hasattr_len_on_built_in_containers)
{
	cr_expect_str_eq(sets_eval("v = [hasattr([], '__len__'), hasattr((), '__len__'),\n"
	                           "     hasattr({}, '__len__'), hasattr('ab', '__len__'),\n"
	                           "     hasattr({1}, '__len__'), hasattr(3, '__len__'),\n"
	                           "     hasattr(None, '__len__'), hasattr({1}, '__getitem__'),\n"
	                           "     hasattr([1], '__getitem__'), hasattr({1}, '__iter__'),\n"
	                           "     [4, 5].__len__(), {1, 2}.__contains__(2),\n"
	                           "     (7, 8).__getitem__(1)]\n"),
	                 "[1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 2, 1, 8]");
}
