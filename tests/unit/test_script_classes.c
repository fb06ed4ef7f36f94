/* Unit tests: classes in the script core as pipeline modules write their helpers — `object`
 * as the root class, classmethod / staticmethod / property, __dict__, __new__, the special
 * methods built-in operations use, dataclasses, functools.partial, abc. */
#include "tests/testlib/pycore.h"

#include <unistd.h>

TestSuite(script_classes, .timeout = 20);

Test(script_classes, object_is_the_root_class)
{
	tl_py_t r;
	tl_py_run(&r, "class Helper(object):\n"
	              "    def __init__(self, n):\n"
	              "        super(Helper, self).__init__()\n"
	              "        self.n = n\n"
	              "    def twice(self):\n"
	              "        return self.n * 2\n"
	              "h = Helper(4)\n"
	              "t = h.twice()\n"
	              "inst = isinstance(h, object) and isinstance(3, object)\n"
	              "sub = issubclass(Helper, object)\n"
	              "bare = object.__new__(Helper)\n"
	              "has_n = hasattr(bare, 'n')\n"
	              "sentinel = object()\n"
	              "same = sentinel is sentinel and sentinel is not object()\n"
	              "class Mixin:\n"
	              "    def hello(self):\n"
	              "        return 'mixin'\n"
	              "class Base(object):\n"
	              "    def __init__(self, v):\n"
	              "        self.v = v\n"
	              "class Both(Mixin, Base):\n"
	              "    pass\n"
	              "b = Both(7)\n"
	              "both = (b.v, b.hello())\n");
	cr_expect_eq(tl_py_global(&r, "t")->i, 8);
	cr_expect_eq(tl_py_global(&r, "inst")->b, true);
	cr_expect_eq(tl_py_global(&r, "sub")->b, true);
	cr_expect_eq(tl_py_global(&r, "has_n")->b, false);
	cr_expect_eq(tl_py_global(&r, "same")->b, true);
	/* object does not hide Base.__init__ behind the first base (Python's MRO) */
	cr_expect_str_eq(tl_py_str(&r, "both"), "(7, 'mixin')");
	cr_expect_null(r.I.first_skipped, "%s", r.I.first_skipped);
	tl_py_close(&r);
}

Test(script_classes, classmethods_staticmethods_and_properties)
{
	tl_py_t r;
	tl_py_run(&r, "class Shape:\n"
	              "    count = 0\n"
	              "    def __init__(self, w, h):\n"
	              "        self._w = w\n"
	              "        self.h = h\n"
	              "    @classmethod\n"
	              "    def square(cls, s):\n"
	              "        return cls(s, s)\n"
	              "    @staticmethod\n"
	              "    def area_of(w, h):\n"
	              "        return w * h\n"
	              "    @property\n"
	              "    def w(self):\n"
	              "        return self._w\n"
	              "    @w.setter\n"
	              "    def w(self, v):\n"
	              "        self._w = max(v, 1)\n"
	              "    @property\n"
	              "    def area(self):\n"
	              "        return Shape.area_of(self.w, self.h)\n"
	              "class Tile(Shape):\n"
	              "    pass\n"
	              "s = Shape.square(3)\n"
	              "tile = Tile.square(2)\n"
	              "kind = type(tile).__name__\n"
	              "a1 = s.area\n"
	              "s.w = -5\n"
	              "a2 = s.area\n"
	              "st = (s.area_of(2, 5), Shape.area_of(3, 3))\n"
	              "try:\n"
	              "    s.area = 3\n"
	              "    ro = 'assigned'\n"
	              "except AttributeError:\n"
	              "    ro = 'read-only'\n"
	              "prop = type(Shape.area).__name__\n");
	cr_expect_eq(tl_py_global(&r, "a1")->i, 9);
	cr_expect_str_eq(tl_py_str(&r, "kind"), "Tile");
	cr_expect_eq(tl_py_global(&r, "a2")->i, 3); /* the setter clamped w to 1 */
	cr_expect_str_eq(tl_py_str(&r, "st"), "(10, 9)");
	cr_expect_str_eq(tl_py_str(&r, "ro"), "read-only");
	cr_expect_str_eq(tl_py_str(&r, "prop"), "property");
	tl_py_close(&r);
}

Test(script_classes, dict_new_and_class_attributes)
{
	tl_py_t r;
	tl_py_run(&r, "class Cfg:\n"
	              "    def __init__(self, **kw):\n"
	              "        self.__dict__.update(kw)\n"
	              "c = Cfg(batch=8, crop=224)\n"
	              "vals = (c.batch, c.crop)\n"
	              "c.__dict__['extra'] = 1\n"
	              "keys = sorted(vars(c))\n"
	              "cls_name = c.__class__.__name__\n"
	              "class Single:\n"
	              "    _inst = None\n"
	              "    def __new__(cls, *args):\n"
	              "        if cls._inst is None:\n"
	              "            cls._inst = super().__new__(cls)\n"
	              "        return cls._inst\n"
	              "    def __init__(self, v):\n"
	              "        self.v = v\n"
	              "a = Single(1)\n"
	              "b = Single(2)\n"
	              "single = (a is b, a.v)\n"
	              "raw = Cfg.__new__(Cfg)\n"
	              "raw_keys = list(raw.__dict__)\n"
	              "in_cls = '__init__' in Cfg.__dict__\n");
	cr_expect_str_eq(tl_py_str(&r, "vals"), "(8, 224)");
	cr_expect_str_eq(tl_py_str(&r, "keys"), "['batch', 'crop', 'extra']");
	cr_expect_str_eq(tl_py_str(&r, "cls_name"), "Cfg");
	cr_expect_str_eq(tl_py_str(&r, "single"), "(True, 2)");
	cr_expect_str_eq(tl_py_str(&r, "raw_keys"), "[]");
	cr_expect_eq(tl_py_global(&r, "in_cls")->b, true);
	tl_py_close(&r);
}

Test(script_classes, special_methods_take_part_in_builtins)
{
	tl_py_t r;
	tl_py_run(&r, "class Files:\n"
	              "    def __init__(self, names):\n"
	              "        self.names = names\n"
	              "    def __len__(self):\n"
	              "        return len(self.names)\n"
	              "    def __getitem__(self, i):\n"
	              "        return self.names[i]\n"
	              "    def __contains__(self, n):\n"
	              "        return n in self.names\n"
	              "    def __call__(self, prefix):\n"
	              "        return [prefix + n for n in self.names]\n"
	              "    def __str__(self):\n"
	              "        return 'Files(%d)' % len(self)\n"
	              "class V:\n"
	              "    def __init__(self, x):\n"
	              "        self.x = x\n"
	              "    def __eq__(self, o):\n"
	              "        return self.x == o.x\n"
	              "    def __lt__(self, o):\n"
	              "        return self.x < o.x\n"
	              "    def __repr__(self):\n"
	              "        return 'V(%r)' % self.x\n"
	              "f = Files(['a', 'b'])\n"
	              "res = (len(f), f[1], 'a' in f, 'z' not in f, f('/d/'), bool(Files([])))\n"
	              "text = str(f) + ' ' + f'{f}' + ' %s' % f\n"
	              "order = sorted([V(3), V(1), V(2)])\n"
	              "eq = (V(1) == V(1), V(1) != V(2))\n");
	cr_expect_str_eq(tl_py_str(&r, "res"), "(2, 'b', True, True, ['/d/a', '/d/b'], False)");
	cr_expect_str_eq(tl_py_str(&r, "text"), "Files(2) Files(2) Files(2)");
	cr_expect_str_eq(tl_py_str(&r, "eq"), "(True, True)");
	tl_py_close(&r);
	tl_py_run(&r, "class V:\n"
	              "    def __init__(self, x):\n"
	              "        self.x = x\n"
	              "    def __lt__(self, o):\n"
	              "        return self.x < o.x\n"
	              "    def __repr__(self):\n"
	              "        return 'V(%r)' % self.x\n"
	              "order = repr(sorted([V(3), V(1), V(2)])[0])\n");
	cr_expect_str_eq(tl_py_str(&r, "order"), "V(1)");
	tl_py_close(&r);
}

Test(script_classes, dataclasses)
{
	tl_py_t r;
	tl_py_run(&r, "from dataclasses import dataclass, field, asdict, replace, fields\n"
	              "import dataclasses\n"
	              "from typing import ClassVar, List\n"
	              "@dataclass\n"
	              "class Aug:\n"
	              "    name: str\n"
	              "    prob: float = 0.5\n"
	              "    sizes: List[int] = field(default_factory=lambda: [224, 256])\n"
	              "    registry: ClassVar[int] = 3\n"
	              "    def __post_init__(self):\n"
	              "        self.key = self.name.upper()\n"
	              "@dataclass(frozen=True, order=True)\n"
	              "class Point:\n"
	              "    x: int\n"
	              "    y: int = 0\n"
	              "@dataclass\n"
	              "class Aug3(Aug):\n"
	              "    extra: int = 7\n"
	              "a = Aug('flip')\n"
	              "b = Aug('flip', prob=0.5)\n"
	              "text = repr(a)\n"
	              "same = (a == b, a == Aug('crop'))\n"
	              "key = a.key\n"
	              "sizes_differ = Aug('x').sizes is not Aug('y').sizes\n"
	              "d = asdict(Aug3('rot', 0.1))\n"
	              "names = [f.name for f in fields(Aug3)]\n"
	              "p = Point(1, 2)\n"
	              "try:\n"
	              "    p.x = 5\n"
	              "    frozen = 'assigned'\n"
	              "except dataclasses.FrozenInstanceError as e:\n"
	              "    frozen = str(e)\n"
	              "moved = replace(p, y=9)\n"
	              "ordered = sorted([Point(2, 1), Point(1, 5), Point(1, 2)])\n"
	              "cv = Aug.registry\n"
	              "try:\n"
	              "    Aug()\n"
	              "except TypeError as e:\n"
	              "    missing = str(e)\n");
	cr_expect_str_eq(tl_py_str(&r, "text"), "Aug(name='flip', prob=0.5, sizes=[224, 256])");
	cr_expect_str_eq(tl_py_str(&r, "same"), "(True, False)");
	cr_expect_str_eq(tl_py_str(&r, "key"), "FLIP");
	cr_expect_eq(tl_py_global(&r, "sizes_differ")->b, true);
	cr_expect_str_eq(tl_py_str(&r, "d"),
	                 "{'name': 'rot', 'prob': 0.1, 'sizes': [224, 256], 'extra': 7}");
	cr_expect_str_eq(tl_py_str(&r, "names"), "['name', 'prob', 'sizes', 'extra']");
	cr_expect_str_eq(tl_py_str(&r, "frozen"), "cannot assign to field 'x'");
	cr_expect_str_eq(tl_py_str(&r, "moved"), "Point(x=1, y=9)");
	cr_expect_str_eq(tl_py_str(&r, "ordered"), "[Point(x=1, y=2), Point(x=1, y=5), Point(x=2, y=1)]");
	cr_expect_eq(tl_py_global(&r, "cv")->i, 3);
	cr_expect_str_eq(tl_py_str(&r, "missing"), "Aug.__init__() missing 1 required argument: 'name'");
	tl_py_close(&r);
}

Test(script_classes, functools_and_abc)
{
	tl_py_t r;
	tl_py_run(&r, "from functools import partial, reduce, lru_cache, wraps\n"
	              "from abc import ABC, abstractmethod\n"
	              "def scale(x, factor=1, offset=0):\n"
	              "    return x * factor + offset\n"
	              "double = partial(scale, factor=2)\n"
	              "vals = (double(3), double(3, offset=1), double(3, factor=5))\n"
	              "total = reduce(lambda a, b: a + b, [1, 2, 3], 10)\n"
	              "@lru_cache(maxsize=None)\n"
	              "def sq(x):\n"
	              "    return x * x\n"
	              "class Source(ABC):\n"
	              "    @abstractmethod\n"
	              "    def __call__(self, info):\n"
	              "        pass\n"
	              "class Counter(Source):\n"
	              "    def __call__(self, info):\n"
	              "        return info + 1\n"
	              "c = Counter()(4)\n");
	cr_expect_str_eq(tl_py_str(&r, "vals"), "(6, 7, 15)");
	cr_expect_eq(tl_py_global(&r, "total")->i, 16);
	cr_expect_eq(tl_py_global(&r, "c")->i, 5);
	tl_py_close(&r);
}

/* num_threads is often multiprocessing.cpu_count(): the processors online, as Python's */
Test(script_classes, multiprocessing_cpu_count)
{
	tl_py_t r;
	tl_py_run(&r, "import multiprocessing\n"
	              "from multiprocessing import cpu_count\n"
	              "n = multiprocessing.cpu_count()\n"
	              "same = cpu_count() == n\n"
	              "threads = min(4, n)\n");
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cr_expect_eq(tl_py_global(&r, "n")->i, online > 0 ? online : 1);
	cr_expect_str_eq(tl_py_str(&r, "same"), "True");
	cr_expect_eq(tl_py_global(&r, "threads")->i, online < 4 ? online : 4);
	tl_py_close(&r);
}
