/*
 * The runner thread (runner.h): command queue, the loop that runs the pipeline at full speed
 * between commands, and publishing models. Commands are handled strictly in order; a model
 * is published before a command counts as done, so whoever waited for it sees its effect.
 * While running, the loop takes the queue lock once per iteration (uncontended: a few tens
 * of nanoseconds) and publishes at most 20 models a second.
 */
#include "tui/runner_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PUBLISH_INTERVAL_S 0.05

double dalic_tui_now(void)
{
	return (double)dalic_clock_ns() * 1e-9;
}

void dalic_tui_runner_note(tui_runner_t *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->notice, sizeof r->notice, fmt, ap);
	va_end(ap);
}

void dalic_tui_runner_fail(tui_runner_t *r, const char *message)
{
	dalic_tui_parse_error(message && *message ? message : "unknown error", &r->error);
	r->running = false;
}

/* ---- throughput over the last two seconds of running --------------------------------------- */
void dalic_tui_runner_rate_reset(tui_runner_t *r)
{
	r->rate_head = r->rate_count = 0;
}

void dalic_tui_runner_count(tui_runner_t *r, int samples, double t)
{
	r->samples += samples;
	int last = (r->rate_head + TUI_RATE_RING - 1) % TUI_RATE_RING;
	if (!r->rate_count || t - r->rate_t[last] >= 0.05) {
		r->rate_t[r->rate_head] = t;
		r->rate_n[r->rate_head] = r->samples - samples; /* counted from before this one */
		r->rate_head = (r->rate_head + 1) % TUI_RATE_RING;
		if (r->rate_count < TUI_RATE_RING)
			r->rate_count++;
	}
	int oldest = (r->rate_head + TUI_RATE_RING - r->rate_count) % TUI_RATE_RING;
	while (r->rate_count > 1 && t - r->rate_t[oldest] > 2.0) {
		oldest = (oldest + 1) % TUI_RATE_RING;
		r->rate_count--;
	}
	/* samples since the oldest mark over the time since: a rate from the first iterations on */
	double dt = t - r->rate_t[oldest];
	if (dt > 1e-3)
		r->rate = (double)(r->samples - r->rate_n[oldest]) / dt;
}

/* ---- models ------------------------------------------------------------------------------ */
tui_model_t *dalic_tui_runner_make_model(tui_runner_t *r)
{
	tui_model_t *m = dalic_tui_model_new();
	if (!m)
		return NULL;
	m->done_seq = r->finishing_seq;
	m->path = r->opts.path;
	m->engine = r->engine;
	m->running = r->running;
	m->ended = r->ended;
	m->epochs = r->epochs;
	m->rate = r->rate;
	m->run_seconds = r->run_seconds;
	m->run_samples = r->run_samples;
	m->params = r->params;
	m->emulated = r->emulated;
	m->tracing = r->trace;
	snprintf(m->executor, sizeof m->executor, "%s", r->executor);
	if (r->engine == TUI_ENGINE_FULL) {
		m->built = r->pipe != NULL;
		m->iteration = m->iterations_done = r->full_iteration;
		m->graph = dalic_tui_graph_ref(r->full_graph);
	} else {
		m->built = r->dbg != NULL;
		m->graph = dalic_tui_graph_ref(r->debug_graph);
		dalic_tui_debug_fill(r, m);
	}
	m->batch = dalic_tui_batch_view_ref(r->batch);
	m->error = r->error;
	snprintf(m->notice, sizeof m->notice, "%s", r->notice);
	m->has_compare = r->has_compare;
	snprintf(m->change, sizeof m->change, "%s", r->change);
	snprintf(m->tune, sizeof m->tune, "%s", r->tune_text);
	m->before = r->before;
	dalic_tui_ckpt_fill(r, m);
	dalic_tui_mark_fill(r, m);
	for (int k = 0; k < 3; k++) {
		dalic_mem_totals_t t;
		dalic_mem_totals(k, &t);
		m->mem_live[k] = t.bytes_live;
	}
	return m;
}

void dalic_tui_runner_publish(tui_runner_t *r)
{
	dalic_tui_ckpt_position(r);
	tui_model_t *m = dalic_tui_runner_make_model(r);
	if (!m)
		return;
	pthread_mutex_lock(&r->lock);
	tui_model_t *old = r->published;
	r->published = m;
	pthread_mutex_unlock(&r->lock);
	dalic_tui_model_unref(old);
	r->last_publish = dalic_tui_now();
}

tui_model_t *dalic_tui_runner_model(tui_runner_t *r)
{
	pthread_mutex_lock(&r->lock);
	tui_model_t *m = dalic_tui_model_ref(r->published);
	pthread_mutex_unlock(&r->lock);
	return m;
}

dalic_stats_snapshot_t *dalic_tui_runner_snapshot(tui_runner_t *r)
{
	dalic_stats_snapshot_t *s = NULL;
	pthread_mutex_lock(&r->stats_lock);
	if (r->stats && dalic_stats_snapshot(r->stats, &s))
		s = NULL;
	pthread_mutex_unlock(&r->stats_lock);
	return s;
}

/* ---- loading and engines ------------------------------------------------------------------ */
static void runner_apply_user_params(tui_runner_t *r)
{
	dalic_pipeline_params_t p = *dalic_pipeline_params(r->def);
	/* A workbench always wants executor_statistics. */
	p.enable_memory_stats = true;
	if (r->user_prefetch) {
		p.prefetch_cpu = r->params.prefetch_cpu;
		p.prefetch_gpu = r->params.prefetch_gpu;
		p.separated_queues = r->params.separated_queues;
	}
	if (r->user_bps)
		p.bytes_per_sample = r->params.bytes_per_sample;
	if (r->user_threads)
		p.num_threads = r->params.num_threads;
	r->params = p;
}

int dalic_tui_runner_instantiate(tui_runner_t *r, dalic_pipeline_t **out)
{
	int rc = dalic_pipeline_clone(r->def, &r->params, out);
	if (rc)
		dalic_tui_runner_fail(r, dalic_last_error());
	return rc;
}

static void runner_close_engines(tui_runner_t *r)
{
	dalic_tui_mark_forget(r); /* the counters it kept are gone with the engines */
	dalic_tui_full_close(r);
	dalic_tui_debug_close(r);
	dalic_tui_batch_view_unref(r->batch);
	r->batch = NULL;
	r->ended = false;
	r->epochs = 0;
	r->samples = r->run_samples = 0;
	r->run_seconds = 0;
	dalic_tui_runner_rate_reset(r);
	r->rate = 0;
}

static int runner_open_engine(tui_runner_t *r)
{
	if (!r->def)
		return DALIC_ESTATE;
	int rc = DALIC_OK;
	if (r->engine == TUI_ENGINE_FULL && (!r->pipe || r->pipe_failed)) {
		dalic_tui_full_close(r);
		rc = dalic_tui_full_open(r);
	} else if (r->engine == TUI_ENGINE_DEBUG && !r->dbg) {
		rc = dalic_tui_debug_open(r);
	}
	r->batch_dirty = true;
	return rc;
}

static int runner_load(tui_runner_t *r)
{
	dalic_pipeline_t *def;
	int rc = dalic_pipeline_load(r->opts.path, r->opts.pipeline, &r->opts.override, &def);
	if (rc) {
		dalic_tui_runner_fail(r, dalic_last_error());
		return rc;
	}
	dalic_pipeline_destroy(r->def);
	r->def = def;
	runner_apply_user_params(r);
	return DALIC_OK;
}

static void runner_depth_text(const dalic_pipeline_params_t *p, char buf[32])
{
	if (p->separated_queues)
		snprintf(buf, 32, "cpu=%d,gpu=%d", p->prefetch_cpu, p->prefetch_gpu);
	else
		snprintf(buf, 32, "%d", p->prefetch_cpu);
}

static void runner_rebuild(tui_runner_t *r, bool reload)
{
	bool was_running = r->running;
	r->running = false;
	memset(&r->error, 0, sizeof r->error);
	r->error.sample = -1;
	if (reload && runner_load(r))
		return; /* the old engines stay as they were; the error is on screen */
	runner_close_engines(r);
	if (!runner_open_engine(r)) {
		char depth[32];
		r->running = was_running;
		runner_depth_text(&r->params, depth);
		dalic_tui_runner_note(r,
		                      "rebuilt: prefetch_queue_depth %s, bytes_per_sample %lld, "
		                      "num_threads %d",
		                      depth, (long long)r->params.bytes_per_sample,
		                      r->params.num_threads);
	}
}

/* Records the numbers before a parameter change; the UI shows them next to the live ones. */
static void runner_begin_change(tui_runner_t *r, const char *what, const char *from, const char *to)
{
	tui_model_t *m = dalic_tui_runner_make_model(r);
	dalic_stats_snapshot_t *s = dalic_tui_runner_snapshot(r);
	dalic_tui_measure_take(m, s, &r->before);
	dalic_stats_snapshot_free(s);
	dalic_tui_model_unref(m);
	r->has_compare = true;
	snprintf(r->change, sizeof r->change, "%s %s -> %s", what, from, to);
}

static void runner_set_param(tui_runner_t *r, const tui_cmd_t *c)
{
	char from[32], to[32];
	dalic_pipeline_params_t next = r->params;
	const char *what;
	if (c->kind == TUI_CMD_SET_PREFETCH) {
		next.prefetch_cpu = (int)c->a;
		next.prefetch_gpu = (int)c->b;
		next.separated_queues = c->flag;
		runner_depth_text(&r->params, from);
		runner_depth_text(&next, to);
		what = "prefetch"; /* short: it heads a 32-column table */
		r->user_prefetch = true;
	} else if (c->kind == TUI_CMD_SET_BPS) {
		next.bytes_per_sample = c->a;
		snprintf(from, sizeof from, "%lld", (long long)r->params.bytes_per_sample);
		snprintf(to, sizeof to, "%lld", (long long)c->a);
		what = "bytes_per_sample";
		r->user_bps = true;
	} else {
		next.num_threads = (int)c->a;
		snprintf(from, sizeof from, "%d", r->params.num_threads);
		snprintf(to, sizeof to, "%d", (int)c->a);
		what = "num_threads";
		r->user_threads = true;
	}
	runner_begin_change(r, what, from, to);
	r->params = next;
	runner_rebuild(r, false);
}

static void runner_switch_engine(tui_runner_t *r, tui_engine_t to)
{
	r->running = false;
	r->engine = to;
	dalic_tui_mark_forget(r); /* the mark was of the other engine's counters */
	if (!runner_open_engine(r))
		dalic_tui_runner_note(
		    r, to == TUI_ENGINE_DEBUG
		           ? "debug engine: eager, one operator at a time; every node "
		             "is kept"
		           : "full engine: stages and prefetch queues, as DALI runs");
}

static void runner_handle(tui_runner_t *r, const tui_cmd_t *c)
{
	switch (c->kind) {
	case TUI_CMD_STEP_OP:
		r->running = false;
		if (r->engine == TUI_ENGINE_FULL)
			runner_switch_engine(r, TUI_ENGINE_DEBUG);
		if (!runner_open_engine(r))
			dalic_tui_debug_run(r, true, NULL);
		break;
	case TUI_CMD_STEP_ITER:
		r->running = false;
		if (runner_open_engine(r))
			break;
		if (r->engine == TUI_ENGINE_FULL)
			dalic_tui_full_iterate(r, NULL);
		else
			dalic_tui_debug_run(r, false, NULL);
		break;
	case TUI_CMD_TOGGLE_RUN:
		if (r->running) {
			r->running = false;
			break;
		}
		if (!runner_open_engine(r)) {
			r->running = !r->ended;
			dalic_tui_runner_rate_reset(r);
		}
		break;
	case TUI_CMD_PAUSE:
		r->running = false;
		break;
	case TUI_CMD_ENGINE:
		runner_switch_engine(r, r->engine == TUI_ENGINE_FULL ? TUI_ENGINE_DEBUG
		                                                     : TUI_ENGINE_FULL);
		break;
	case TUI_CMD_SELECT:
		snprintf(r->sel_op, sizeof r->sel_op, "%s", c->text);
		r->sel_output = (int)c->a;
		r->sel_sample = (int)c->b;
		r->sel_window = c->c > 0 ? (int)c->c : 8;
		r->batch_dirty = true;
		break;
	case TUI_CMD_SET_PREFETCH:
	case TUI_CMD_SET_BPS:
	case TUI_CMD_SET_THREADS:
		runner_set_param(r, c);
		break;
	case TUI_CMD_REBUILD:
		runner_rebuild(r, true);
		break;
	case TUI_CMD_SAVE:
		if (!dalic_tui_full_save(r, c->text))
			dalic_tui_runner_note(
			    r, "saved %s/stats.json, report.txt, graph.dot%s", c->text,
			    r->trace ? ", trace.json" : " (no trace: T records one)");
		break;
	case TUI_CMD_TRACE:
		r->trace = !r->trace;
		runner_rebuild(r, false);
		dalic_tui_runner_note(r, r->trace ? "recording a trace: w saves it as trace.json"
		                                  : "trace recording off");
		break;
	case TUI_CMD_TUNE:
		if (c->flag)
			dalic_tui_tune_run(r, (double)c->a);
		else
			r->tune_text[0] = 0;
		break;
	case TUI_CMD_CHECKPOINT:
		dalic_tui_ckpt_save(r, c->text);
		break;
	case TUI_CMD_MARK:
		dalic_tui_mark(r);
		break;
	case TUI_CMD_SINCE:
		dalic_tui_mark_toggle_since(r);
		break;
	case TUI_CMD_QUIT:
		r->quit = true;
		r->running = false;
		break;
	}
}

static void runner_extract(tui_runner_t *r)
{
	if (r->engine == TUI_ENGINE_FULL)
		dalic_tui_full_extract(r);
	else
		dalic_tui_debug_extract(r);
	r->batch_dirty = false;
	r->last_extract = dalic_tui_now();
}

static void *runner_main(void *arg)
{
	tui_runner_t *r = arg;
	/* a seek to --at says what it did instead */
	if (!runner_load(r) && !runner_open_engine(r) && !r->seek_noted)
		dalic_tui_runner_note(
		    r, "ready: n runs one iteration, Space keeps running, ? lists every key");
	runner_extract(r);
	dalic_tui_runner_publish(r);
	for (;;) {
		tui_cmd_t cmd;
		uint64_t seq = 0;
		pthread_mutex_lock(&r->lock);
		while (!r->qcount && !r->running && !r->quit) {
			r->idle = true;
			pthread_cond_broadcast(&r->done);
			pthread_cond_wait(&r->wake, &r->lock);
		}
		r->idle = false;
		if (r->qcount) {
			cmd = r->queue[r->qhead];
			r->qhead = (r->qhead + 1) % TUI_QUEUE_MAX;
			r->qcount--;
			seq = r->done_seq + 1;
			atomic_store(&r->pending, r->qcount > 0);
		}
		pthread_mutex_unlock(&r->lock);
		if (seq) {
			r->finishing_seq = seq;
			runner_handle(r, &cmd);
			if (r->batch_dirty && !r->quit)
				runner_extract(r);
			dalic_tui_runner_publish(r);
			pthread_mutex_lock(&r->lock);
			r->done_seq = seq;
			pthread_cond_broadcast(&r->done);
			pthread_mutex_unlock(&r->lock);
			if (r->quit)
				break;
			r->loop_t = dalic_tui_now(); /* running time counts from here */
			continue;
		}
		if (r->quit)
			break;
		/* Running: one iteration, then (rate-limited) a fresh batch view and a model. One
		 * clock read per iteration: at tens of thousands of iterations a second it shows.
		 */
		int n = 0;
		if (r->engine == TUI_ENGINE_FULL)
			dalic_tui_full_iterate(r, &n);
		else
			dalic_tui_debug_run(r, false, &n);
		double t = dalic_tui_now();
		dalic_tui_runner_count(r, n, t);
		r->run_samples += n;
		r->run_seconds += t - r->loop_t;
		r->loop_t = t;
		if (!r->running || t - r->last_extract >= 0.25)
			runner_extract(r);
		if (!r->running || t - r->last_publish >= PUBLISH_INTERVAL_S)
			dalic_tui_runner_publish(r);
	}
	runner_close_engines(r);
	dalic_tui_runner_publish(r);
	return NULL;
}

int dalic_tui_runner_start(const tui_options_t *opts, tui_runner_t **out)
{
	tui_runner_t *r = calloc(1, sizeof *r);
	if (!r)
		return DALIC_ENOMEM;
	r->opts = *opts;
	r->engine = opts->debug ? TUI_ENGINE_DEBUG : TUI_ENGINE_FULL;
	r->trace = opts->trace;
	r->sel_window = 8;
	r->error.sample = -1;
	dalic_pipeline_params_init(&r->params);
	snprintf(r->executor, sizeof r->executor, "-");
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->stats_lock, NULL);
	pthread_cond_init(&r->wake, NULL);
	pthread_cond_init(&r->done, NULL);
	r->published = dalic_tui_model_new();
	if (!r->published) {
		free(r);
		return DALIC_ENOMEM;
	}
	r->published->path = opts->path;
	r->published->engine = r->engine;
	dalic_tui_runner_note(r, "loading %s", opts->path ? opts->path : "(no pipeline)");
	snprintf(r->published->notice, sizeof r->published->notice, "%s", r->notice);
	if (pthread_create(&r->thread, NULL, runner_main, r)) {
		dalic_tui_model_unref(r->published);
		free(r);
		return DALIC_ENOMEM;
	}
	*out = r;
	return DALIC_OK;
}

uint64_t dalic_tui_runner_post(tui_runner_t *r, const tui_cmd_t *cmd)
{
	uint64_t seq = 0;
	pthread_mutex_lock(&r->lock);
	if (r->qcount < TUI_QUEUE_MAX) {
		r->queue[(r->qhead + r->qcount) % TUI_QUEUE_MAX] = *cmd;
		r->qcount++;
		r->posted_seq++;
		seq = r->posted_seq;
		atomic_store(&r->pending, true);
		pthread_cond_signal(&r->wake);
	}
	pthread_mutex_unlock(&r->lock);
	return seq;
}

static void runner_deadline(struct timespec *ts, int timeout_ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += timeout_ms / 1000;
	ts->tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

bool dalic_tui_runner_wait(tui_runner_t *r, uint64_t seq, int timeout_ms)
{
	struct timespec ts;
	runner_deadline(&ts, timeout_ms);
	pthread_mutex_lock(&r->lock);
	int rc = 0;
	while (r->done_seq < seq && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&r->done, &r->lock, &ts);
	bool ok = r->done_seq >= seq;
	pthread_mutex_unlock(&r->lock);
	return ok;
}

bool dalic_tui_runner_wait_idle(tui_runner_t *r, int timeout_ms)
{
	struct timespec ts;
	runner_deadline(&ts, timeout_ms);
	pthread_mutex_lock(&r->lock);
	int rc = 0;
	while ((!r->idle || r->qcount) && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&r->done, &r->lock, &ts);
	bool ok = r->idle && !r->qcount;
	pthread_mutex_unlock(&r->lock);
	return ok;
}

void dalic_tui_runner_stop(tui_runner_t *r)
{
	if (!r)
		return;
	/* A full queue drains quickly: the runner handles commands even while running. */
	while (!dalic_tui_runner_post(r, &(tui_cmd_t){.kind = TUI_CMD_QUIT}))
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	pthread_join(r->thread, NULL);
	dalic_pipeline_destroy(r->def);
	dalic_tui_model_unref(r->published);
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->stats_lock);
	pthread_cond_destroy(&r->wake);
	pthread_cond_destroy(&r->done);
	free(r);
}
