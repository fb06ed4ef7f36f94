/* The shared test library: statistics collectors (see tests/testlib.h). */
#include "tests/testlib.h"

dalic_pipeline_t *tl_stats_pipeline(const tl_mode_t *m, int batch, bool mem_stats)
{
	dalic_pipeline_params_t p = tl_mode_params(m, batch, 2);
	p.device_id = DALIC_CPU_ONLY_DEVICE_ID;
	p.seed = 7;
	p.enable_memory_stats = mem_stats;
	dalic_pipeline_t *pipe = NULL;
	ASSERT_OK(dalic_pipeline_create(&p, &pipe), "mode %s", m->name);
	return pipe;
}

dalic_op_t *tl_stats_op(dalic_pipeline_t *p, const char *op, const char *input)
{
	dalic_op_t *o = NULL;
	ASSERT_OK(dalic_pipeline_add_op(p, op, "cpu", &o));
	if (input)
		ASSERT_OK(dalic_op_add_input(o, input, NULL));
	return o;
}

dalic_stats_t *tl_stats_attach(dalic_pipeline_t *p, bool trace)
{
	dalic_stats_options_t o;
	dalic_stats_options_init(&o);
	o.trace = trace;
	dalic_stats_t *s = NULL;
	ASSERT_OK(dalic_stats_create(p, &o, &s));
	return s;
}

void tl_stats_run(dalic_pipeline_t *p, int n)
{
	for (int i = 0; i < n; i++)
		ASSERT_OK(dalic_pipeline_run(p), "iteration %d", i);
}

/* The first run() fills the cpu queue; outputs wait for one of the gpu (output) queue's
 * slots, one of which the caller holds. */
void tl_stats_wait_idle(dalic_stats_t *s, const tl_mode_t *m, int runs)
{
	int64_t cpu_done = runs + (m->pipelined ? m->cpu - 1 : 0);
	int64_t ready = runs + (m->pipelined ? (m->cpu < m->gpu ? m->cpu : m->gpu) - 1 : 0);
	for (int i = 0; i < 10000; i++) {
		dalic_stats_snapshot_t *snap = NULL;
		ASSERT_OK(dalic_stats_snapshot(s, &snap));
		bool idle = snap->iterations >= ready && snap->stages[0].time.count >= cpu_done;
		dalic_stats_snapshot_free(snap);
		if (idle)
			return;
		tl_sleep_ms(1);
	}
	cr_assert_fail("%s: the iterations of %d runs did not finish", m->name, runs);
}

dalic_stats_snapshot_t *tl_stats_finish(dalic_stats_t *s, dalic_pipeline_t *p)
{
	dalic_pipeline_destroy(p);
	dalic_stats_pipeline_destroyed(s);
	dalic_stats_snapshot_t *snap = NULL;
	ASSERT_OK(dalic_stats_snapshot(s, &snap));
	return snap;
}

const dalic_stats_operator_t *tl_stats_find(const dalic_stats_snapshot_t *snap, const char *name)
{
	const dalic_stats_operator_t *op = dalic_stats_find_operator(snap, name);
	cr_assert(op, "operator %s not in the snapshot", name);
	return op;
}

const dalic_stats_operator_t *tl_stats_find_prefix(const dalic_stats_snapshot_t *snap,
                                                   const char *prefix)
{
	for (int i = 0; i < snap->num_operators; i++)
		if (!strncmp(snap->operators[i].name, prefix, strlen(prefix)))
			return &snap->operators[i];
	cr_assert_fail("no operator named %s* in the snapshot", prefix);
	return NULL;
}
