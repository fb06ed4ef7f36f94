/* Unit tests: generators in the script core — yield / yield from, next(), send(), close(),
 * for loops and comprehensions that stop an endless generator, generator expressions,
 * iterator classes (__iter__ / __next__, the external_source pattern) and __getitem__
 * sequences, errors inside generator bodies, and the limits that keep them bounded. */
#include "tests/testlib/pycore.h"

#include "frontend/script/py/pygen.h"

TestSuite(script_generators, .timeout = 30);

Test(script_generators, yield_next_and_iteration)
{
	tl_py_t r;
	tl_py_run(&r, "log = []\n"
	              "def count(n):\n"
	              "    log.append('start')\n"
	              "    i = 0\n"
	              "    while i < n:\n"
	              "        yield i\n"
	              "        i += 1\n"
	              "    log.append('end')\n"
	              "    return 'done'\n"
	              "g = count(3)\n"
	              "before = list(log)\n"
	              "a = next(g)\n"
	              "b = next(g)\n"
	              "rest = [x for x in g]\n"
	              "try:\n"
	              "    next(g)\n"
	              "    stop = 'no'\n"
	              "except StopIteration:\n"
	              "    stop = 'yes'\n"
	              "total = sum(count(5))\n"
	              "pairs = list(zip(count(3), 'abc'))\n"
	              "kind = (type(g).__name__, next(count(0), 'dflt'))\n");
	cr_expect_str_eq(tl_py_str(&r, "before"), "[]"); /* the body waits for next() */
	cr_expect_eq(tl_py_global(&r, "a")->i, 0);
	cr_expect_eq(tl_py_global(&r, "b")->i, 1);
	cr_expect_str_eq(tl_py_str(&r, "rest"), "[2]");
	cr_expect_str_eq(tl_py_str(&r, "stop"), "yes");
	cr_expect_eq(tl_py_global(&r, "total")->i, 10);
	cr_expect_str_eq(tl_py_str(&r, "pairs"), "[(0, 'a'), (1, 'b'), (2, 'c')]");
	cr_expect_str_eq(tl_py_str(&r, "kind"), "('generator', 'dflt')");
	tl_py_close(&r);
}

Test(script_generators, endless_generators_stop_where_the_consumer_stops)
{
	tl_py_t r;
	tl_py_run(&r, "def naturals():\n"
	              "    n = 0\n"
	              "    while True:\n"
	              "        yield n\n"
	              "        n += 1\n"
	              "got = []\n"
	              "for x in naturals():\n"
	              "    if x * x > 50:\n"
	              "        break\n"
	              "    got.append(x)\n"
	              "evens = (x for x in naturals() if x % 2 == 0)\n"
	              "first = [next(evens) for _ in range(4)]\n"
	              "big = next(x for x in naturals() if x > 1000)\n"
	              "def batches(size):\n"
	              "    g = naturals()\n"
	              "    while True:\n"
	              "        yield [next(g) for _ in range(size)]\n"
	              "bs = batches(3)\n"
	              "two = (next(bs), next(bs))\n");
	cr_expect_str_eq(tl_py_str(&r, "got"), "[0, 1, 2, 3, 4, 5, 6, 7]");
	cr_expect_str_eq(tl_py_str(&r, "first"), "[0, 2, 4, 6]");
	cr_expect_eq(tl_py_global(&r, "big")->i, 1001);
	cr_expect_str_eq(tl_py_str(&r, "two"), "([0, 1, 2], [3, 4, 5])");
	tl_py_close(&r);
}

Test(script_generators, yield_from_send_and_close)
{
	tl_py_t r;
	tl_py_run(&r, "log = []\n"
	              "def inner():\n"
	              "    yield 1\n"
	              "    yield 2\n"
	              "    return 'inner-result'\n"
	              "def outer():\n"
	              "    res = yield from inner()\n"
	              "    log.append(res)\n"
	              "    yield from [3, 4]\n"
	              "flat = list(outer())\n"
	              "def echo():\n"
	              "    total = 0\n"
	              "    while True:\n"
	              "        got = yield total\n"
	              "        total += got\n"
	              "e = echo()\n"
	              "sent = (next(e), e.send(5), e.send(2))\n"
	              "def guarded():\n"
	              "    try:\n"
	              "        yield 'a'\n"
	              "        yield 'b'\n"
	              "    finally:\n"
	              "        log.append('cleanup')\n"
	              "gd = guarded()\n"
	              "x = next(gd)\n"
	              "gd.close()\n"
	              "after_close = next(gd, 'closed')\n");
	cr_expect_str_eq(tl_py_str(&r, "flat"), "[1, 2, 3, 4]");
	cr_expect_str_eq(tl_py_str(&r, "sent"), "(0, 5, 7)");
	cr_expect_str_eq(tl_py_str(&r, "log"), "['inner-result', 'cleanup']");
	cr_expect_str_eq(tl_py_str(&r, "after_close"), "closed");
	tl_py_close(&r);
}

Test(script_generators, iterator_classes_and_sequences)
{
	/* the iterator class DALI's external_source examples feed from */
	tl_py_t r;
	tl_py_run(&r, "class ExternalInputIterator(object):\n"
	              "    def __init__(self, batch_size, files):\n"
	              "        self.batch_size = batch_size\n"
	              "        self.files = files\n"
	              "    def __iter__(self):\n"
	              "        self.i = 0\n"
	              "        self.n = len(self.files)\n"
	              "        return self\n"
	              "    def __next__(self):\n"
	              "        if self.i >= self.n:\n"
	              "            raise StopIteration\n"
	              "        batch = []\n"
	              "        for _ in range(self.batch_size):\n"
	              "            batch.append(self.files[self.i % self.n])\n"
	              "            self.i += 1\n"
	              "        return batch\n"
	              "    next = __next__\n"
	              "it = iter(ExternalInputIterator(2, ['a', 'b', 'c']))\n"
	              "b1 = next(it)\n"
	              "b2 = it.next()\n"
	              "done = next(it, None)\n"
	              "every = [b for b in ExternalInputIterator(3, ['x', 'y', 'z'])]\n"
	              "class Seq:\n"
	              "    def __getitem__(self, i):\n"
	              "        if i >= 3:\n"
	              "            raise IndexError(i)\n"
	              "        return i * 10\n"
	              "seq = list(Seq())\n"
	              "li = iter([1, 2])\n"
	              "li_vals = (next(li), next(li), next(li, 'end'), type(li).__name__)\n");
	cr_expect_str_eq(tl_py_str(&r, "b1"), "['a', 'b']");
	cr_expect_str_eq(tl_py_str(&r, "b2"), "['c', 'a']");
	cr_expect_eq(tl_py_global(&r, "done")->kind, PV_NONE);
	cr_expect_str_eq(tl_py_str(&r, "every"), "[['x', 'y', 'z']]");
	cr_expect_str_eq(tl_py_str(&r, "seq"), "[0, 10, 20]");
	cr_expect_str_eq(tl_py_str(&r, "li_vals"), "(1, 2, 'end', 'list_iterator')");
	tl_py_close(&r);
}

Test(script_generators, errors_in_bodies_are_located_and_catchable)
{
	tl_py_t r;
	tl_py_run(&r, "def parse(items):\n"
	              "    for s in items:\n"
	              "        yield int(s)\n"
	              "g = parse(['1', 'x', '3'])\n"
	              "first = next(g)\n"
	              "try:\n"
	              "    next(g)\n"
	              "except ValueError as e:\n"
	              "    err = str(e)\n"
	              "finished = next(g, 'finished')\n"
	              "def bad():\n"
	              "    yield 1\n"
	              "    raise StopIteration\n"
	              "try:\n"
	              "    list(bad())\n"
	              "except RuntimeError as e:\n"
	              "    pep479 = str(e)\n");
	cr_expect_eq(tl_py_global(&r, "first")->i, 1);
	cr_expect_str_eq(tl_py_str(&r, "err"), "invalid literal for int() with base 10: 'x'");
	/* a generator whose body failed is finished */
	cr_expect_str_eq(tl_py_str(&r, "finished"), "finished");
	cr_expect_str_eq(tl_py_str(&r, "pep479"), "generator raised StopIteration");
	tl_py_close(&r);
}

Test(script_generators, yield_where_dalic_refuses_it)
{
	const char *m = tl_py_fail("f = lambda: (yield 1)\n", DALIC_EPARSE);
	cr_expect(tl_text_has(m, "core.py:1:14: 'yield' inside a lambda", true), "%s", m);
	m = tl_py_fail("def f(xs):\n    return [(yield x) for x in xs]\n", DALIC_EPARSE);
	cr_expect(tl_text_has(m, "core.py:2:14: 'yield' inside a comprehension", true), "%s", m);
	m = tl_py_fail("class C:\n    yield 1\n", DALIC_EPARSE);
	cr_expect(tl_text_has(m, "core.py:2:5: 'yield' outside function", true), "%s", m);
	m = tl_py_fail("def f():\n    x = 1 + yield 2\n", DALIC_EPARSE);
	cr_expect(tl_text_has(m, "core.py:2:13: invalid syntax: a yield expression", true), "%s", m);
}

Test(script_generators, limits_hold_inside_generators)
{
	/* deep recursion inside a generator body stops at the call limit, on its own stack */
	const char *m = tl_py_fail("def deep(n):\n"
	                           "    return deep(n + 1)\n"
	                           "def gen():\n"
	                           "    yield deep(0)\n"
	                           "try:\n"
	                           "    v = next(gen())\n"
	                           "except Exception:\n"
	                           "    v = 0\n"
	                           "w = v + 1\n",
	                           DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "core.py:2:12: RecursionError", true), "%s", m);
	/* an endless generator taken whole is an error, not a hang */
	m = tl_py_fail("def many():\n"
	               "    for i in range(1000):\n"
	               "        for j in range(1000):\n"
	               "            yield j\n"
	               "n = len(list(many()))\n",
	               DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "core.py:5:9: taking more than 100000 values", true), "%s", m);
	m = tl_py_fail("def forever():\n"
	               "    while True:\n"
	               "        yield 1\n"
	               "n = len(list(forever()))\n",
	               DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "core.py:2:5: loop runs more than", true), "%s", m);
	/* started generators that are never finished hold stacks: bounded */
	m = tl_py_fail("def g():\n"
	               "    yield 1\n"
	               "    yield 2\n"
	               "held = [g() for _ in range(1000)]\n"
	               "for x in held:\n"
	               "    next(x)\n",
	               DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "core.py:6:5: more than 256 generators", true), "%s", m);
	/* the same number, each finished, is fine; abandoned ones are freed at close */
	tl_py_t r;
	tl_py_run(&r, "def g():\n"
	              "    yield 1\n"
	              "total = 0\n"
	              "for _ in range(1000):\n"
	              "    total += sum(g())\n"
	              "left = [g() for _ in range(10)]\n"
	              "for x in left:\n"
	              "    next(x)\n");
	cr_expect_eq(tl_py_global(&r, "total")->i, 1000);
	cr_expect_eq(r.I.nlive_gens, 10);
	tl_py_close(&r);
}
