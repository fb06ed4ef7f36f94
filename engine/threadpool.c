/*
 * The per-sample thread pool (see threadpool.h).
 *
 * One mutex guards the FIFO of jobs that still have chunks to hand out and the stack of idle
 * workers. Each worker sleeps on its own condition variable, so the pool wakes exactly the
 * workers it wants (never a thundering herd, never a wake-up lost to the wrong sleeper).
 *
 * Jobs take turns, chunk by chunk: when stages submit at once (emulated gpu operators run
 * their samples here too), a later stage's small job waits for one chunk of an earlier
 * stage's big job, not for all of it — otherwise the stages could not overlap.
 *
 * The submitter helps: it borrows the index of an idle worker — that worker stays asleep and
 * off the idle stack meanwhile, so the index is never used twice — and runs chunks of its own
 * job while the workers it woke take the others. For a batch of cheap samples this keeps two
 * context switches per operator off the critical path (the whole job often finishes before a
 * woken worker gets a core); for expensive samples it is one more pair of hands. With pinned
 * workers (set_affinity) the submitter does not borrow: samples then always run on the
 * pinned threads.
 *
 * Workers pin themselves before announcing they started, so a bad affinity plan fails the
 * pool's creation, not a run.
 */
#include "engine/threadpool.h"

#include "engine/affinity.h"
#include "engine/clock.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct worker {
	dalic_pool_t *pool;
	pthread_t tid;
	pthread_cond_t cv;
	int index;
	int cpu;
	bool started;
	bool wake; /* set (under mu) by whoever takes this worker off the idle stack */
} worker_t;

struct dalic_pool {
	pthread_mutex_t mu;
	pthread_cond_t done, started_cv;
	dalic_pool_job_t *head, *tail; /* jobs with chunks left to hand out */
	int num_threads;
	int *idle;       /* stack of sleeping workers nobody woke or borrowed */
	int num_idle;
	int started;     /* workers that finished starting (pinned or failed) */
	int pin_failed;  /* index+1 of a worker that could not pin, 0 if none */
	bool may_borrow; /* no worker is pinned */
	bool stop;
	worker_t *workers;
};

static void pool_unlink_job(dalic_pool_t *p, dalic_pool_job_t *job)
{
	dalic_pool_job_t **pp = &p->head, *prev = NULL;
	while (*pp && *pp != job) {
		prev = *pp;
		pp = &(*pp)->link;
	}
	if (!*pp)
		return;
	*pp = job->link;
	if (p->tail == job)
		p->tail = prev;
}

/* Hands out the next chunk of `job` (mu held): *first and the count, 0 when none is left. */
static int pool_take_chunk(dalic_pool_t *p, dalic_pool_job_t *job, int *first)
{
	if (job->next >= job->count)
		return 0;
	*first = job->next;
	int n = job->count - job->next < job->chunk ? job->count - job->next : job->chunk;
	job->next += n;
	if (job->next == job->count)
		pool_unlink_job(p, job);
	return n;
}

static bool pool_wake_one(dalic_pool_t *p)
{
	if (!p->num_idle)
		return false;
	worker_t *w = &p->workers[p->idle[--p->num_idle]];
	w->wake = true;
	pthread_cond_signal(&w->cv);
	return true;
}

/* Accounts for a finished chunk (mu held); a failure cancels what is not handed out. */
static void pool_finish_chunk(dalic_pool_t *p, dalic_pool_job_t *job, int count, int status,
			 int item, const char *error)
{
	if (status && (job->status == DALIC_OK || item < job->failed_item)) {
		job->status = status;
		job->failed_item = item;
		snprintf(job->error, sizeof job->error, "%s", error);
	}
	if (status && job->next < job->count && !job->order) {
		count += job->count - job->next;
		job->next = job->count;
		pool_unlink_job(p, job);
	}
	job->done += count;
	if (job->done == job->count)
		pthread_cond_broadcast(&p->done);
}

/* Runs one chunk unlocked (mu held on entry and exit). */
static void pool_run_chunk(dalic_pool_t *p, dalic_pool_job_t *job, int first, int n, int thread)
{
	pthread_mutex_unlock(&p->mu);
	char error[DALIC_ERRMSG_MAX];
	int status = DALIC_OK, item = first;
	int64_t t0 = dalic_clock_ns();
	/* the thread's CPU clock is a system call: read only for an observer */
	int64_t c0 = job->chunk_done ? dalic_thread_cpu_ns() : 0;
	if (job->order) /* chunks of one: the item is the order's */
		first = item = job->order[first];
	for (; item < first + n; item++)
		if ((status = job->fn(job->arg, item, thread)))
			break;
	if (status)
		dalic_error_save(error, sizeof error);
	else if (job->chunk_done)
		job->chunk_done(job->arg, thread, first, n, t0, dalic_clock_ns(),
				dalic_thread_cpu_ns() - c0);
	pthread_mutex_lock(&p->mu);
	pool_finish_chunk(p, job, n, status, item, status ? error : "");
}

static void *pool_worker_main(void *arg)
{
	worker_t *w = arg;
	dalic_pool_t *p = w->pool;
	int pinned = dalic_affinity_pin_self(w->cpu);
	pthread_mutex_lock(&p->mu);
	if (pinned && !p->pin_failed)
		p->pin_failed = w->index + 1;
	p->started++;
	pthread_cond_broadcast(&p->started_cv);
	while (!p->stop) {
		if (!p->head) {
			w->wake = false;
			p->idle[p->num_idle++] = w->index;
			while (!w->wake && !p->stop)
				pthread_cond_wait(&w->cv, &p->mu);
			continue;
		}
		dalic_pool_job_t *job = p->head;
		int first = 0, n = pool_take_chunk(p, job, &first);
		if (p->head == job && job->link) { /* jobs take turns, chunk by chunk */
			p->head = job->link;
			p->tail->link = job;
			p->tail = job;
			job->link = NULL;
		}
		if (p->head) /* chunks left: another idle worker may help */
			pool_wake_one(p);
		pool_run_chunk(p, job, first, n, w->index);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int dalic_pool_create(int num_threads, const int *cpus, dalic_pool_t **out)
{
	*out = NULL;
	if (num_threads < 1)
		return dalic_fail(DALIC_EINVAL, "thread pool: %d threads", num_threads);
	dalic_pool_t *p = calloc(1, sizeof *p);
	if (!p)
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	p->workers = calloc((size_t)num_threads, sizeof *p->workers);
	p->idle = calloc((size_t)num_threads, sizeof *p->idle);
	if (!p->workers || !p->idle) {
		free(p->workers);
		free(p->idle);
		free(p);
		return dalic_fail(DALIC_ENOMEM, "out of memory");
	}
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->done, NULL);
	pthread_cond_init(&p->started_cv, NULL);
	p->may_borrow = true;
	int rc = DALIC_OK;
	for (int i = 0; i < num_threads; i++) {
		worker_t *w = &p->workers[i];
		w->pool = p;
		w->index = i;
		w->cpu = cpus ? cpus[i] : -1;
		if (w->cpu >= 0)
			p->may_borrow = false;
		pthread_cond_init(&w->cv, NULL);
		if (dalic_pool_thread_create(&w->tid, pool_worker_main, w)) {
			rc = dalic_fail(DALIC_ENOMEM, "thread pool: cannot start worker %d of %d", i,
					num_threads);
			break;
		}
		w->started = true;
		p->num_threads = i + 1;
	}
	pthread_mutex_lock(&p->mu);
	while (p->started < p->num_threads)
		pthread_cond_wait(&p->started_cv, &p->mu);
	int failed = p->pin_failed;
	pthread_mutex_unlock(&p->mu);
	if (!rc && failed)
		rc = dalic_fail(DALIC_EINVAL, "set_affinity: cannot pin worker %d to CPU %d",
				failed - 1, cpus[failed - 1]);
	if (rc) {
		dalic_pool_destroy(p);
		return rc;
	}
	*out = p;
	return DALIC_OK;
}

void dalic_pool_destroy(dalic_pool_t *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stop = true;
	for (int i = 0; i < p->num_threads; i++)
		pthread_cond_signal(&p->workers[i].cv);
	pthread_mutex_unlock(&p->mu);
	for (int i = 0; i < p->num_threads; i++)
		if (p->workers[i].started)
			pthread_join(p->workers[i].tid, NULL);
	for (int i = 0; i < p->num_threads; i++)
		pthread_cond_destroy(&p->workers[i].cv);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->done);
	pthread_cond_destroy(&p->started_cv);
	free(p->workers);
	free(p->idle);
	free(p);
}

int dalic_pool_run(dalic_pool_t *p, dalic_pool_job_t *job)
{
	if (job->count <= 0)
		return DALIC_OK;
	/* Chunks of ~1/4 of a worker's share: small enough to balance samples of uneven cost,
	 * large enough that taking work stays cheap next to doing it. */
	int chunk = job->single || job->order ? 1 : job->count / (p->num_threads * 4);
	job->chunk = chunk > 0 ? chunk : 1;
	job->next = job->done = 0;
	job->status = DALIC_OK;
	job->failed_item = job->count;
	job->link = NULL;
	pthread_mutex_lock(&p->mu);
	if (p->tail)
		p->tail->link = job;
	else
		p->head = job;
	p->tail = job;
	int me = p->may_borrow && p->num_idle ? p->idle[--p->num_idle] : -1;
	int chunks = (job->count + job->chunk - 1) / job->chunk - (me >= 0);
	if (me >= 0 && job->solo)
		chunks = 0;
	for (int i = 0; i < chunks && pool_wake_one(p); i++)
		;
	if (me >= 0) {
		int first = 0, n;
		while ((n = pool_take_chunk(p, job, &first)))
			pool_run_chunk(p, job, first, n, me);
		/* give the index back: to the idle stack, or to other jobs' work */
		p->idle[p->num_idle++] = me;
		if (p->head)
			pool_wake_one(p);
	}
	while (job->done < job->count)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
	if (job->status)
		return dalic_fail(job->status, "%s", job->error);
	return DALIC_OK;
}

int dalic_pool_thread_create(pthread_t *tid, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigaddset(&block, SIGWINCH);
	pthread_sigmask(SIG_BLOCK, &block, &old); /* a new thread inherits the mask */
	int rc = pthread_create(tid, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int dalic_pool_size(const dalic_pool_t *p)
{
	return p->num_threads;
}
