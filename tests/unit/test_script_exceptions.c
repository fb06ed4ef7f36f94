/* Unit tests: Python exceptions in the script core — dalic's own errors raise the built-in
 * exception Python would (int("x") is a ValueError), the class hierarchy decides which
 * clause catches, `as`, tuples, `raise ... from`, bare `raise`, `else`, `finally`, user
 * exception classes, context managers that suppress; errors that are not Python exceptions
 * (interpreter limits, code dalic does not evaluate) pass every clause. */
#include "tests/testlib/pycore.h"

#include "frontend/script/py/pydict.h"

TestSuite(script_exceptions, .timeout = 20);

Test(script_exceptions, builtin_errors_are_caught_by_their_class)
{
	tl_py_t r;
	tl_py_run(&r, "try:\n"
	              "    n = int('x')\n"
	              "except ValueError as e:\n"
	              "    n = -1\n"
	              "    msg = str(e)\n"
	              "    kind = type(e).__name__\n"
	              "try:\n"
	              "    {'a': 1}['b']\n"
	              "except KeyError as e:\n"
	              "    key = str(e)\n"
	              "try:\n"
	              "    [1, 2][5]\n"
	              "except IndexError as e:\n"
	              "    idx = str(e)\n"
	              "try:\n"
	              "    None.shape\n"
	              "except AttributeError:\n"
	              "    attr = 'caught'\n"
	              "try:\n"
	              "    undefined_name\n"
	              "except NameError:\n"
	              "    name = 'caught'\n"
	              "try:\n"
	              "    1 + 'a'\n"
	              "except TypeError:\n"
	              "    typ = 'caught'\n");
	cr_expect_eq(tl_py_global(&r, "n")->i, -1);
	cr_expect_str_eq(tl_py_str(&r, "msg"), "invalid literal for int() with base 10: 'x'");
	cr_expect_str_eq(tl_py_str(&r, "kind"), "ValueError");
	cr_expect_str_eq(tl_py_str(&r, "key"), "'b'");
	cr_expect_str_eq(tl_py_str(&r, "idx"), "list index out of range");
	cr_expect_str_eq(tl_py_str(&r, "attr"), "caught");
	cr_expect_str_eq(tl_py_str(&r, "name"), "caught");
	cr_expect_str_eq(tl_py_str(&r, "typ"), "caught");
	tl_py_close(&r);
}

Test(script_exceptions, the_hierarchy_decides_which_clause_catches)
{
	tl_py_t r;
	tl_py_run(&r, "def which(f):\n"
	              "    try:\n"
	              "        f()\n"
	              "    except TypeError:\n"
	              "        return 'TypeError'\n"
	              "    except ArithmeticError:\n"
	              "        return 'ArithmeticError'\n"
	              "    except LookupError:\n"
	              "        return 'LookupError'\n"
	              "    except OSError:\n"
	              "        return 'OSError'\n"
	              "    except ImportError:\n"
	              "        return 'ImportError'\n"
	              "    except RuntimeError:\n"
	              "        return 'RuntimeError'\n"
	              "    except Exception:\n"
	              "        return 'Exception'\n"
	              "    return 'none'\n"
	              "def div():\n"
	              "    return 1 / 0\n"
	              "def key():\n"
	              "    return {}['k']\n"
	              "def index():\n"
	              "    return ()[0]\n"
	              "def fnf():\n"
	              "    raise FileNotFoundError('no such file')\n"
	              "def mnf():\n"
	              "    raise ModuleNotFoundError\n"
	              "def nie():\n"
	              "    raise NotImplementedError('later')\n"
	              "def val():\n"
	              "    raise ValueError\n"
	              "def ok():\n"
	              "    return 1\n"
	              "got = [which(f) for f in (div, key, index, fnf, mnf, nie, val, ok)]\n"
	              "io = IOError is OSError\n");
	cr_expect_str_eq(tl_py_str(&r, "got"),
	                 "['ArithmeticError', 'LookupError', 'LookupError', 'OSError', "
	                 "'ImportError', 'RuntimeError', 'Exception', 'none']");
	cr_expect_eq(tl_py_global(&r, "io")->b, true);
	tl_py_close(&r);
}

Test(script_exceptions, base_exceptions_pass_except_exception)
{
	tl_py_t r;
	tl_py_run(&r, "log = []\n"
	              "try:\n"
	              "    try:\n"
	              "        raise KeyboardInterrupt\n"
	              "    except Exception:\n"
	              "        log.append('wrong')\n"
	              "except BaseException as e:\n"
	              "    log.append(type(e).__name__)\n"
	              "ok = isinstance(ZeroDivisionError(), ArithmeticError)\n");
	cr_expect_str_eq(tl_py_str(&r, "log"), "['KeyboardInterrupt']");
	cr_expect_eq(tl_py_global(&r, "ok")->b, true);
	tl_py_close(&r);
}

Test(script_exceptions, tuples_as_cause_and_user_classes)
{
	tl_py_t r;
	tl_py_run(&r, "class ConfigError(ValueError):\n"
	              "    def __init__(self, key, hint):\n"
	              "        super().__init__('bad key ' + key)\n"
	              "        self.key = key\n"
	              "        self.hint = hint\n"
	              "class Plain(Exception):\n"
	              "    pass\n"
	              "try:\n"
	              "    try:\n"
	              "        int('q')\n"
	              "    except (KeyError, ValueError) as low:\n"
	              "        raise ConfigError('crop', 'use an int') from low\n"
	              "except ValueError as e:\n"
	              "    text = str(e)\n"
	              "    key = e.key\n"
	              "    hint = e.hint\n"
	              "    cause = type(e.__cause__).__name__\n"
	              "    args = e.args\n"
	              "try:\n"
	              "    raise Plain('a', 2)\n"
	              "except Plain as p:\n"
	              "    plain = str(p)\n"
	              "    plain_repr = repr(Plain('x'))\n");
	cr_expect_str_eq(tl_py_str(&r, "text"), "bad key crop");
	cr_expect_str_eq(tl_py_str(&r, "key"), "crop");
	cr_expect_str_eq(tl_py_str(&r, "hint"), "use an int");
	cr_expect_str_eq(tl_py_str(&r, "cause"), "ValueError");
	cr_expect_str_eq(tl_py_str(&r, "args"), "('bad key crop',)");
	cr_expect_str_eq(tl_py_str(&r, "plain"), "('a', 2)");
	cr_expect_str_eq(tl_py_str(&r, "plain_repr"), "Plain('x')");
	tl_py_close(&r);
}

Test(script_exceptions, else_finally_and_reraise)
{
	tl_py_t r;
	tl_py_run(&r, "log = []\n"
	              "def f(x):\n"
	              "    try:\n"
	              "        v = int(x)\n"
	              "    except ValueError:\n"
	              "        log.append('except')\n"
	              "        return None\n"
	              "    else:\n"
	              "        log.append('else')\n"
	              "        return v\n"
	              "    finally:\n"
	              "        log.append('finally')\n"
	              "a = f('3')\n"
	              "b = f('z')\n"
	              "def g():\n"
	              "    try:\n"
	              "        raise KeyError('k')\n"
	              "    finally:\n"
	              "        try:\n"
	              "            int('inner')\n"
	              "        except ValueError:\n"
	              "            log.append('inner')\n"
	              "def h():\n"
	              "    try:\n"
	              "        g()\n"
	              "    except KeyError:\n"
	              "        log.append('h')\n"
	              "        raise\n"
	              "try:\n"
	              "    h()\n"
	              "except LookupError as e:\n"
	              "    outer = repr(e)\n");
	cr_expect_eq(tl_py_global(&r, "a")->i, 3);
	cr_expect_eq(tl_py_global(&r, "b")->kind, PV_NONE);
	/* the KeyError survives the finally block whose own try caught a ValueError */
	cr_expect_str_eq(tl_py_str(&r, "log"),
	                 "['else', 'finally', 'except', 'finally', 'inner', 'h']");
	cr_expect_str_eq(tl_py_str(&r, "outer"), "KeyError(\"'k'\")");
	tl_py_close(&r);
}

Test(script_exceptions, reraised_errors_keep_their_place)
{
	/* a re-raised error still points at the line that raised it first; uncaught at module
	 * level, the statement is skipped and that message kept */
	tl_py_t r;
	tl_py_run(&r, "def f():\n"
	              "    return int('x')\n"
	              "try:\n"
	              "    f()\n"
	              "except ValueError:\n"
	              "    raise\n");
	cr_assert_not_null(r.I.first_skipped);
	cr_expect(tl_text_has(r.I.first_skipped,
	                      "core.py:2:12: ValueError: invalid literal for int() with base 10: 'x'",
	                      true));
	tl_py_close(&r);
}

Test(script_exceptions, limits_and_unknown_values_are_not_caught)
{
	/* an interpreter limit stops the load even under `except Exception` */
	const char *m = tl_py_fail("try:\n"
	                           "    r = range(10 ** 9)\n"
	                           "except Exception:\n"
	                           "    r = None\n",
	                           DALIC_EUNSUPPORTED);
	cr_expect(tl_text_has(m, "core.py:2:9: range() with more than", true));
	/* a value dalic does not evaluate is not an exception the script can handle */
	tl_py_t r;
	tl_py_run(&r, "import matplotlib.pyplot as plt\n"
	              "log = []\n"
	              "try:\n"
	              "    title = f'{plt.figure()}'\n"
	              "except Exception:\n"
	              "    log.append('caught')\n"
	              "finally:\n"
	              "    log.append('finally')\n"
	              "after = 1\n");
	cr_expect_str_eq(tl_py_str(&r, "log"), "['finally']");
	cr_expect_eq(tl_py_global(&r, "after")->i, 1);
	cr_expect_not_null(r.I.first_skipped);
	tl_py_close(&r);
}

Test(script_exceptions, context_managers_see_and_may_suppress_exceptions)
{
	tl_py_t r;
	tl_py_run(&r, "seen = []\n"
	              "class Suppress:\n"
	              "    def __init__(self, *types):\n"
	              "        self.types = types\n"
	              "    def __enter__(self):\n"
	              "        return self\n"
	              "    def __exit__(self, t, v, tb):\n"
	              "        seen.append(None if t is None else t.__name__)\n"
	              "        return t is not None and issubclass(t, self.types)\n"
	              "with Suppress(KeyError):\n"
	              "    {}['x']\n"
	              "with Suppress(KeyError):\n"
	              "    pass\n"
	              "try:\n"
	              "    with Suppress(KeyError):\n"
	              "        int('v')\n"
	              "except ValueError:\n"
	              "    seen.append('outer')\n");
	cr_expect_str_eq(tl_py_str(&r, "seen"), "['KeyError', None, 'ValueError', 'outer']");
	tl_py_close(&r);
}
