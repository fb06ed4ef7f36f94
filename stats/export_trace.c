/*
 * Chrome trace-event JSON (the "JSON Object Format" that Perfetto and chrome://tracing open).
 * One process, with tracks (tids): 1-3 the CPU / MIXED / GPU stage threads — a stage's trace_span
 * per iteration with its operators' spans nested inside —, 10 the consumer's waits for data,
 * 100+k pool worker k's sample chunks. Spans that may overlap on one thread (iterations in
 * flight, stage waits) are async events; queue occupancy is a counter track per queue, and
 * each worker has a "worker k cpu %" counter (thread CPU over its chunks); the trend adds
 * "samples/s", "memory held", "cpu cores", "reader MB/s" and "reader files/s" counters and
 * one "op time NAME" (milliseconds of work per second) per operator the user wrote, a point
 * per trend interval.
 * Events are streamed from the trace ring, so a long trace costs no extra memory to write.
 * Timestamps are microseconds since the collector started (or was reset).
 */
#include "stats/collector.h"

#include "engine/error.h"

#include <stdlib.h>
#include <string.h>

enum { TID_STAGE = 1, TID_CONSUMER = 10, TID_WORKER = 100, MAX_WORKERS = 4096 };

typedef struct writer {
	FILE *f;
	const dalic_stats_layout_t *L;
	int64_t t0;
	bool first;
	unsigned char named[MAX_WORKERS / 8];
	int64_t async_id;
} writer_t;

static void trace_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void trace_begin(writer_t *w)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = false;
}

static double trace_us(const writer_t *w, int64_t t)
{
	return (double)(t - w->t0) * 1e-3;
}

static void trace_track_name(writer_t *w, int tid, const char *name, int sort)
{
	trace_begin(w);
	fprintf(
	    w->f,
	    "{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":", tid);
	trace_json_string(w->f, name);
	fputs("}},", w->f);
	fprintf(w->f,
	        "\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":"
	        "{\"sort_index\":%d}}",
	        tid, sort);
}

static const char *trace_node_name(const writer_t *w, int id)
{
	return w->L && id >= 0 && id < w->L->num_nodes ? w->L->nodes[id].name : "?";
}

static void trace_span(writer_t *w, int tid, const char *name, const char *cat, int64_t t0, int64_t t1)
{
	trace_begin(w);
	fprintf(w->f, "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":", tid);
	trace_json_string(w->f, name);
	fprintf(w->f, ",\"cat\":\"%s\",\"ts\":%.3f,\"dur\":%.3f", cat, trace_us(w, t0),
	        (double)(t1 - t0) * 1e-3);
}

static void trace_async_pair(writer_t *w, const char *name, const char *cat, int64_t t0, int64_t t1,
                       int64_t iteration)
{
	int64_t id = ++w->async_id;
	trace_begin(w);
	fprintf(w->f,
	        "{\"ph\":\"b\",\"pid\":1,\"tid\":%d,\"name\":\"%s\",\"cat\":\"%s\",\"id\":%lld,"
	        "\"ts\":%.3f,\"args\":{\"iteration\":%lld}},",
	        TID_CONSUMER, name, cat, (long long)id, trace_us(w, t0), (long long)iteration);
	fprintf(w->f,
	        "\n{\"ph\":\"e\",\"pid\":1,\"tid\":%d,\"name\":\"%s\",\"cat\":\"%s\",\"id\":%lld,"
	        "\"ts\":%.3f}",
	        TID_CONSUMER, name, cat, (long long)id, trace_us(w, t1));
}

/* Counter track "worker k cpu %": how much of a CPU the worker used while it ran the chunk,
 * back to 0 when it ends — the area under it is the worker's CPU time. */
static void trace_worker_counter(writer_t *w, const dalic_trace_event_t *ev)
{
	double dur = (double)(ev->t1 - ev->t0);
	double pct = dur > 0 ? 100.0 * (double)ev->cpu / dur : 0;
	if (pct > 100)
		pct = 100;
	for (int k = 0; k < 2; k++) {
		trace_begin(w);
		fprintf(w->f,
		        "{\"ph\":\"C\",\"pid\":1,\"name\":\"worker %d cpu %%\",\"ts\":%.3f,"
		        "\"args\":{\"cpu\":%.1f}}",
		        ev->thread, trace_us(w, k ? ev->t1 : ev->t0), k ? 0.0 : pct);
	}
}

static void trace_emit(void *user, const dalic_trace_event_t *ev)
{
	writer_t *w = user;
	static const char *const stages[3] = {"CPU", "MIXED", "GPU"};
	static const char *const queues[2] = {"queue cpu", "queue gpu"};
	switch (ev->type) {
	case DALIC_TRACE_NODE:
		if (!w->L || ev->id >= w->L->num_nodes)
			break;
		trace_span(w, TID_STAGE + w->L->nodes[ev->id].stage, trace_node_name(w, ev->id), "operator",
		     ev->t0, ev->t1);
		fprintf(w->f,
		        ",\"args\":{\"iteration\":%lld,\"batch\":%d,\"op\":\"%s\",\"cpu_us\":%.3f}}",
		        (long long)ev->iteration, ev->a, w->L->nodes[ev->id].op,
		        (double)ev->cpu * 1e-3);
		break;
	case DALIC_TRACE_CHUNK:
		if (ev->thread >= 0 && ev->thread < MAX_WORKERS &&
		    !(w->named[ev->thread / 8] & (1u << (ev->thread % 8)))) {
			char name[32];
			snprintf(name, sizeof name, "worker %d", ev->thread);
			trace_track_name(w, TID_WORKER + ev->thread, name, TID_WORKER + ev->thread);
			w->named[ev->thread / 8] |= (unsigned char)(1u << (ev->thread % 8));
		}
		trace_span(w, TID_WORKER + ev->thread, trace_node_name(w, ev->id), "samples", ev->t0, ev->t1);
		fprintf(w->f,
		        ",\"args\":{\"iteration\":%lld,\"first_sample\":%d,\"samples\":%d,"
		        "\"cpu_us\":%.3f}}",
		        (long long)ev->iteration, ev->a, ev->b, (double)ev->cpu * 1e-3);
		trace_worker_counter(w, ev);
		break;
	case DALIC_TRACE_STAGE:
		if (ev->id < 0 || ev->id > 2)
			break;
		trace_span(w, TID_STAGE + ev->id, stages[ev->id], "stage", ev->t0, ev->t1);
		fprintf(w->f, ",\"args\":{\"iteration\":%lld}}", (long long)ev->iteration);
		break;
	case DALIC_TRACE_WAIT:
		if (ev->id == DALIC_WAIT_CONSUMER) {
			trace_span(w, TID_CONSUMER, "wait for data", "wait", ev->t0, ev->t1);
			fputs("}", w->f);
		} else {
			trace_async_pair(w,
			           ev->id == DALIC_WAIT_FREE_SLOT ? "wait for a free slot"
			           : ev->id == DALIC_WAIT_READY   ? "ready, not taken"
			                                          : "wait for input",
			           "wait", ev->t0, ev->t1, ev->iteration);
		}
		break;
	case DALIC_TRACE_QUEUE:
		if (ev->id < 0 || ev->id > 1)
			break;
		trace_begin(w);
		fprintf(w->f,
		        "{\"ph\":\"C\",\"pid\":1,\"name\":\"%s\",\"ts\":%.3f,\"args\":"
		        "{\"occupancy\":%d}}",
		        queues[ev->id], trace_us(w, ev->t0), ev->a);
		break;
	case DALIC_TRACE_ITERATION:
		trace_async_pair(w, "iteration", "iteration", ev->t0, ev->t1, ev->iteration);
		break;
	}
}

/* Each operator's work in the interval before point i, in ms per second. */
static void trace_trend_ops(writer_t *w, dalic_stats_t *s, int i, double dt, double ts)
{
	for (int k = 0; w->L && s->trend_ops && k < s->trend_nodes && k < w->L->num_nodes; k++) {
		if (w->L->nodes[k].internal)
			continue;
		int64_t now = s->trend_ops[(size_t)i * s->trend_nodes + k];
		int64_t before = i ? s->trend_ops[(size_t)(i - 1) * s->trend_nodes + k] : 0;
		char name[300];
		snprintf(name, sizeof name, "op time %s", w->L->nodes[k].name);
		trace_begin(w);
		fprintf(w->f, "{\"ph\":\"C\",\"pid\":1,\"name\":");
		trace_json_string(w->f, name);
		fprintf(w->f, ",\"ts\":%.3f,\"args\":{\"ms/s\":%.3f}}", ts,
		        dt > 0 ? (double)(now - before) * 1e-6 / dt : 0);
	}
}

/* The trend's points as counter tracks: samples/s, memory held, CPU cores in use, the
 * readers' MB/s and files/s, each operator's time. */
static void trace_trend(writer_t *w, dalic_stats_t *s)
{
	pthread_mutex_lock(&s->trend_lock);
	dalic_stats_trend_point_t prev = {0};
	for (int i = 0; i < s->trend_count; i++) {
		const dalic_stats_trend_point_t *p = &s->trend[i];
		double dt = p->t_s - prev.t_s, ts = p->t_s * 1e6;
		trace_begin(w);
		fprintf(w->f,
		        "{\"ph\":\"C\",\"pid\":1,\"name\":\"samples/s\",\"ts\":%.3f,\"args\":"
		        "{\"samples/s\":%.1f}},",
		        ts, dt > 0 ? (double)(p->samples - prev.samples) / dt : 0);
		fprintf(w->f,
		        "\n{\"ph\":\"C\",\"pid\":1,\"name\":\"memory held\",\"ts\":%.3f,\"args\":"
		        "{\"bytes\":%lld}},",
		        ts, (long long)p->bytes_live);
		fprintf(w->f,
		        "\n{\"ph\":\"C\",\"pid\":1,\"name\":\"cpu cores\",\"ts\":%.3f,\"args\":"
		        "{\"cores\":%.2f}},",
		        ts, dt > 0 ? (p->cpu_s - prev.cpu_s) / dt : 0);
		fprintf(w->f,
		        "\n{\"ph\":\"C\",\"pid\":1,\"name\":\"reader MB/s\",\"ts\":%.3f,\"args\":"
		        "{\"MB/s\":%.3f}},",
		        ts, dt > 0 ? (double)(p->reader_bytes - prev.reader_bytes) * 1e-6 / dt : 0);
		fprintf(w->f,
		        "\n{\"ph\":\"C\",\"pid\":1,\"name\":\"reader files/s\",\"ts\":%.3f,"
		        "\"args\":{\"files/s\":%.1f}}",
		        ts, dt > 0 ? (double)(p->reader_files - prev.reader_files) / dt : 0);
		trace_trend_ops(w, s, i, dt, ts);
		prev = *p;
	}
	pthread_mutex_unlock(&s->trend_lock);
}

int dalic_stats_write_trace(dalic_stats_t *s, FILE *f)
{
	if (!s->tracing)
		return dalic_fail(DALIC_ESTATE,
		                  "the stats collector was created without tracing (opts.trace)");
	writer_t *w = calloc(1, sizeof *w);
	if (!w)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	w->f = f;
	w->L = dalic_stats_layout(s);
	w->t0 = atomic_load(&s->t0);
	w->first = true;
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", f);
	trace_begin(w);
	fputs("{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"dalic "
	      "pipeline\"}}",
	      f);
	static const char *const tracks[3] = {"stage CPU", "stage MIXED", "stage GPU"};
	for (int st = 0; st < 3; st++)
		if (w->L && w->L->stage_nodes[st] > 0)
			trace_track_name(w, TID_STAGE + st, tracks[st], TID_STAGE + st);
	trace_track_name(w, TID_CONSUMER, "consumer", TID_CONSUMER);
	int64_t n = dalic_trace_ring_each(&s->trace, trace_emit, w);
	trace_trend(w, s);
	fprintf(f,
	        "\n],\"otherData\":{\"generator\":\"dalic " DALIC_VERSION "\",\"events\":%lld,"
	        "\"dropped\":%lld}}\n",
	        (long long)n, (long long)dalic_trace_ring_dropped(&s->trace));
	free(w);
	if (ferror(f))
		return dalic_fail(DALIC_EIO, "cannot write the trace");
	return DALIC_OK;
}

int dalic_stats_save_trace(dalic_stats_t *s, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return dalic_fail(DALIC_EIO, "cannot open '%s' for writing", path);
	int rc = dalic_stats_write_trace(s, f);
	if (fclose(f) && !rc)
		rc = dalic_fail(DALIC_EIO, "cannot write '%s'", path);
	return rc;
}
