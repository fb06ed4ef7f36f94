/*
 * The whole operator registry, schema by schema (after GStreamer's tests/check/generic/
 * states.c, which walks every element factory): every name, fn name and alias finds its own
 * schema and no other; every default parses as its argument's type and passes that type's
 * own validation; every operator and argument is documented; absurd names (very long,
 * dotted, empty, non-ASCII, only dots) fail cleanly, in the registry and through the public
 * API. A schema added later is checked without touching this file.
 */
#include "tests/testlib.h"

#include "engine/schema.h"

TestSuite(registry_schemas, .timeout = 60);

#define REGISTRY_SCHEMAS_MAX_NAMES 1024

/* Every spelling a schema answers to, with its owner. */
typedef struct registry_schemas_name {
	char text[160];
	const dalic_schema_t *owner;
	const char *what;
} registry_schemas_name_t;

static int registry_schemas_add(registry_schemas_name_t *names, int n, const dalic_schema_t *s,
                                const char *what, const char *prefix, const char *text)
{
	cr_assert_lt(n, REGISTRY_SCHEMAS_MAX_NAMES, "more spellings than the test expects");
	int k = snprintf(names[n].text, sizeof names[n].text, "%s%s", prefix, text);
	cr_assert(k > 0 && (size_t)k < sizeof names[n].text, "%s: %s too long", s->name, what);
	names[n].owner = s;
	names[n].what = what;
	return n + 1;
}

/* "readers__File" -> "readers.File", the ops API spelling. */
static void registry_schemas_dotted(const char *name, char *out, size_t n)
{
	size_t o = 0;
	for (const char *p = name; *p && o + 1 < n; p++) {
		if (p[0] == '_' && p[1] == '_' && p != name) {
			out[o++] = '.';
			p++;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = 0;
}

static int registry_schemas_spellings(registry_schemas_name_t *names)
{
	int n = 0;
	for (const dalic_schema_t *const *it = dalic_schema_all(); *it; it++) {
		const dalic_schema_t *s = *it;
		cr_assert(s->name && s->name[0], "a schema without a name");
		n = registry_schemas_add(names, n, s, "schema name", "", s->name);
		if (strstr(s->name + 1, "__")) {
			char dotted[160];
			registry_schemas_dotted(s->name, dotted, sizeof dotted);
			n = registry_schemas_add(names, n, s, "ops spelling", "nvidia.dali.ops.",
			                         dotted);
		}
		if (s->fn) {
			cr_expect(s->fn[0], "%s: empty fn name", s->name);
			n = registry_schemas_add(names, n, s, "fn name", "", s->fn);
			n = registry_schemas_add(names, n, s, "fn name", "fn.", s->fn);
			n = registry_schemas_add(names, n, s, "fn name", "nvidia.dali.fn.", s->fn);
		}
		for (int a = 0; a < 4 && s->aliases[a]; a++) {
			cr_expect(s->aliases[a][0], "%s: empty alias", s->name);
			n = registry_schemas_add(names, n, s, "alias", "", s->aliases[a]);
		}
	}
	return n;
}

Test(registry_schemas, names_are_unique_and_find_their_schema)
{
	static registry_schemas_name_t names[REGISTRY_SCHEMAS_MAX_NAMES];
	int n = registry_schemas_spellings(names);
	cr_assert_gt(n, 20, "the registry looks empty");
	for (int i = 0; i < n; i++) {
		for (int j = i + 1; j < n; j++)
			cr_expect(strcmp(names[i].text, names[j].text) ||
			              names[i].owner == names[j].owner,
			          "\"%s\" is the %s of %s and the %s of %s", names[i].text,
			          names[i].what, names[i].owner->name, names[j].what,
			          names[j].owner->name);
		const dalic_schema_t *found = dalic_schema_find(names[i].text);
		cr_expect_eq(found, names[i].owner, "%s \"%s\" finds %s instead of %s",
		             names[i].what, names[i].text, found ? found->name : "nothing",
		             names[i].owner->name);
	}
	/* the listing is in name order, without repeats */
	const dalic_schema_t *const *all = dalic_schema_all();
	for (int i = 1; all[i]; i++)
		cr_expect_lt(strcmp(all[i - 1]->name, all[i]->name), 0, "%s listed before %s",
		             all[i - 1]->name, all[i]->name);
}

/* The value kind an argument type parses to, and whether it is a list. */
static dalic_vkind_t registry_schemas_kind(dalic_arg_type_t t, bool *list)
{
	*list = t >= DALIC_ARG_INT_LIST;
	switch (t) {
	case DALIC_ARG_FLOAT:
	case DALIC_ARG_FLOAT_LIST:
		return DALIC_V_FLOAT;
	case DALIC_ARG_BOOL:
	case DALIC_ARG_BOOL_LIST:
		return DALIC_V_BOOL;
	case DALIC_ARG_STRING:
	case DALIC_ARG_LAYOUT:
	case DALIC_ARG_STRING_LIST:
	case DALIC_ARG_TF_FEATURE_LIST:
		return DALIC_V_STRING;
	default: /* ints and the enums stored as int64 */
		return DALIC_V_INT;
	}
}

/* The default of `a` parses as its type, equals dalic_schema_arg_default's value and converts to
 * itself (the schema's own validation accepts it). */
static void registry_schemas_check_default(const dalic_schema_t *s, const dalic_arg_schema_t *a)
{
	const char *what = s ? s->name : "(common)";
	dalic_value_t def = {0};
	ASSERT_OK(dalic_schema_arg_default(a, &def), "%s.%s default %s", what, a->name,
	          a->def ? a->def : "(required)");
	if (!a->def || !strcmp(a->def, "None")) {
		cr_expect_eq(def.kind, DALIC_V_NONE, "%s.%s: no default, yet a value", what,
		             a->name);
		dalic_value_free(&def);
		return;
	}
	dalic_value_t parsed = {0};
	ASSERT_OK(dalic_schema_value_parse(a->type, a->def, &parsed), "%s.%s default %s as %s", what,
	          a->name, a->def, dalic_schema_arg_type_name(a->type));
	cr_expect(dalic_value_equal(&def, &parsed), "%s.%s: dalic_schema_arg_default differs from %s",
	          what, a->name, a->def);
	bool list;
	dalic_vkind_t kind = registry_schemas_kind(a->type, &list);
	cr_expect_eq(parsed.is_list, list, "%s.%s default %s: list %d for type %s", what, a->name,
	             a->def, parsed.is_list, dalic_schema_arg_type_name(a->type));
	cr_expect(parsed.kind == kind || (list && parsed.n == 0),
	          "%s.%s default %s: value kind %d for type %s", what, a->name, a->def, parsed.kind,
	          dalic_schema_arg_type_name(a->type));
	if (s) {
		dalic_value_t conv = {0};
		ASSERT_OK(dalic_schema_arg_convert(s, a, &parsed, &conv), "%s.%s default %s", what,
		          a->name, a->def);
		cr_expect(dalic_value_equal(&conv, &parsed),
		          "%s.%s: the default %s changes when "
		          "converted to its own type",
		          what, a->name, a->def);
		dalic_value_free(&conv);
	}
	dalic_value_free(&parsed);
	dalic_value_free(&def);
}

Test(registry_schemas, every_default_parses_as_its_type)
{
	int checked = 0;
	for (const dalic_schema_t *const *it = dalic_schema_all(); *it; it++) {
		for (const dalic_arg_schema_t *a = (*it)->args; a && a->name; a++, checked++)
			registry_schemas_check_default(*it, a);
		if ((*it)->random) {
			const dalic_arg_schema_t *seed = dalic_schema_arg(*it, "seed");
			cr_assert_not_null(seed, "%s is random but has no seed argument",
			                   (*it)->name);
			registry_schemas_check_default(*it, seed);
		}
	}
	for (const dalic_arg_schema_t *a = dalic_schema_common_args(); a->name; a++, checked++)
		registry_schemas_check_default(NULL, a);
	cr_expect_gt(checked, 100);
}

Test(registry_schemas, every_operator_and_argument_is_documented)
{
	for (const dalic_schema_t *const *it = dalic_schema_all(); *it; it++) {
		const dalic_schema_t *s = *it;
		cr_expect(s->doc && s->doc[0], "%s has no doc", s->name);
		cr_expect(s->min_inputs >= 0 && s->min_inputs <= s->max_inputs, "%s: inputs %d..%d",
		          s->name, s->min_inputs, s->max_inputs);
		cr_expect(s->num_outputs >= 1, "%s: %d outputs", s->name, s->num_outputs);
		cr_expect(s->devices & (DALIC_DEV_CPU | DALIC_DEV_GPU | DALIC_DEV_MIXED),
		          "%s runs on no device", s->name);
		cr_expect(s->cpu, "%s has no implementation", s->name);
		for (const dalic_arg_schema_t *a = s->args; a && a->name; a++) {
			cr_expect(a->name[0], "%s: an argument without a name", s->name);
			cr_expect(a->help && a->help[0], "%s.%s has no help", s->name, a->name);
			cr_expect_eq(dalic_schema_arg(s, a->name), a,
			             "%s.%s: found another argument", s->name, a->name);
			for (const dalic_arg_schema_t *b = a + 1; b->name; b++)
				cr_expect(strcmp(a->name, b->name), "%s: argument %s twice",
				          s->name, a->name);
		}
	}
	for (const dalic_arg_schema_t *a = dalic_schema_common_args(); a->name; a++)
		cr_expect(a->help && a->help[0], "common argument %s has no help", a->name);
}

/* Names no operator has; the registry answers NULL, the API DALIC_EUNKNOWN_OP. */
Test(registry_schemas, absurd_names_fail_cleanly)
{
	enum { LONG = 100000 };
	char *huge = malloc(LONG + 1), *dots = malloc(LONG + 1);
	cr_assert(huge && dots);
	memset(huge, 'a', LONG);
	huge[LONG] = 0;
	memset(dots, '.', LONG);
	dots[LONG] = 0;
	/* "a." repeated: 100 and 500 times (the reproducers of the stack overflow), with "fn."
	 * in front, and around the 256 bytes the ops spelling widens into ("a." -> "a__") */
	char a100[201] = "", a500[1001] = "", fn500[1004] = "fn.", w253[254] = "", w255[256] = "",
	     w256[257] = "";
	for (int i = 0; i < 500; i++) {
		if (i < 100)
			strcat(a100, "a.");
		strcat(a500, "a.");
		if (i < 84)
			strcat(w253, "a.");
		if (i < 85)
			strcat(w255, "a.");
	}
	strcat(fn500, a500);
	strcat(w253, "a");
	snprintf(w256, sizeof w256, "%sa", w255);
	const char *names[] = {
	    "",
	    ".",
	    "..",
	    "...random.uniform",
	    "random..uniform",
	    "random.uniform.",
	    ".random.uniform",
	    "fn.",
	    "nvidia.dali.fn.",
	    "nvidia.dali.ops.",
	    "fn.fn.random.uniform",
	    "random.unifor",
	    "random.uniformm",
	    "RANDOM.UNIFORM",
	    "__",
	    "random__",
	    "__random__Uniform",
	    "a.b.c.d.e.f.g",
	    "\xff\xfe\xfd",
	    "caf\xc3\xa9",
	    "random.\x80uniform",
	    "\xe2\x80\x8brandom.uniform",
	    "random.uniform\n",
	    " random.uniform",
	    "%s%n%x",
	    huge,
	    dots,
	    a100,
	    a500,
	    fn500,
	    w253,
	    w255,
	    w256,
	};
	dalic_pipeline_t *p = tl_pipeline(1);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		size_t len = strlen(names[i]);
		const dalic_schema_t *s = dalic_schema_find(names[i]);
		cr_expect_null(s, "name %zu (%zu bytes, \"%.40s\") finds %s", i, len, names[i],
		               s ? s->name : "");
		dalic_op_t *op = NULL;
		EXPECT_STATUS(dalic_pipeline_add_op(p, names[i], "cpu", &op), DALIC_EUNKNOWN_OP,
		              "name %zu (%zu bytes, \"%.40s\")", i, len, names[i]);
		cr_expect(dalic_last_error()[0], "name %zu: no message", i);
		cr_expect_null(op, "name %zu: an operator came back", i);
	}
	cr_expect_null(dalic_schema_find(NULL));
	/* the pipeline is still usable */
	tl_output(p, tl_op(p, "random.coin_flip"));
	tl_run(p, 0);
	dalic_pipeline_destroy(p);
	free(huge);
	free(dots);
}
