/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_rt_host.c — the benchmark runtime on POSIX threads (see
 * bench_rt_host.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tests/unit/bench_rt_host.h>

#define HOST_THREADS_MAX 1024
#define HOST_SLEEP_STEP_NS 5000000ull

struct brt_thread {
	pthread_t pt;
	void (*fn)(void *);
	void *arg;
	uint64_t cpu_ns, work_ns;
	int last_cpu;
};

struct brt_chan {
	pthread_mutex_t m;
	pthread_cond_t not_empty, not_full;
	uint64_t *buf;
	unsigned cap, head, count;
	int closed;
	struct brt_chan *next, *prev;
};

static int host_stop, host_live, host_chans;
static long host_bytes;
static uint64_t host_rng = 12345;
static pthread_mutex_t host_list = PTHREAD_MUTEX_INITIALIZER;
static struct brt_chan *host_chan_list;
static __thread struct brt_thread *host_self;

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *host_trampoline(void *arg)
{
	struct brt_thread *t = arg;
	host_self = t;
	t->fn(t->arg);
	t->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	t->last_cpu = sched_getcpu();
	return NULL;
}

struct brt_thread *brt_spawn(const char *name, void (*fn)(void *), void *arg)
{
	(void)name;
	if (__atomic_add_fetch(&host_live, 1, __ATOMIC_RELAXED) > HOST_THREADS_MAX) {
		__atomic_sub_fetch(&host_live, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	struct brt_thread *t = calloc(1, sizeof(*t));
	if (t) {
		t->fn = fn;
		t->arg = arg;
	}
	if (!t || pthread_create(&t->pt, NULL, host_trampoline, t) != 0) {
		free(t);
		__atomic_sub_fetch(&host_live, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	return t;
}

void brt_join(struct brt_thread *t, struct brt_thread_stats *st)
{
	pthread_join(t->pt, NULL);
	if (st) {
		memset(st, 0, sizeof(*st));
		st->run_ns = t->cpu_ns;
		st->work_ns = t->work_ns;
		st->run_ns_type[0] = t->cpu_ns;
		st->last_cpu = t->last_cpu;
	}
	free(t);
	__atomic_sub_fetch(&host_live, 1, __ATOMIC_RELAXED);
}

uint64_t brt_now(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int brt_stopping(void)
{
	return __atomic_load_n(&host_stop, __ATOMIC_ACQUIRE);
}

void brt_work(uint64_t ns)
{
	uint64_t end = brt_now() + ns / BRT_HOST_WORK_DIV;
	while (brt_now() < end && !brt_stopping())
		;
	if (host_self)
		host_self->work_ns += ns;
}

/* The host has no classes of code: class cls does brt_work(ns). */
void brt_work_class(uint64_t ns, unsigned cls)
{
	(void)cls;
	brt_work(ns);
}

void brt_sleep(uint64_t ns)
{
	uint64_t end = brt_now() + ns;
	for (uint64_t now = brt_now(); now < end && !brt_stopping(); now = brt_now()) {
		uint64_t step = end - now < HOST_SLEEP_STEP_NS ? end - now : HOST_SLEEP_STEP_NS;
		struct timespec ts = { (time_t)(step / 1000000000ull), (long)(step % 1000000000ull) };
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
}

uint64_t brt_random(void)
{
	uint64_t z = __atomic_add_fetch(&host_rng, 0x9e3779b97f4a7c15ull, __ATOMIC_RELAXED);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct brt_chan *brt_chan_new(unsigned capacity)
{
	if (capacity < 1 || capacity > 4096)
		return NULL;
	struct brt_chan *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->buf = calloc(capacity, sizeof(*c->buf));
	if (!c->buf) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->m, NULL);
	pthread_cond_init(&c->not_empty, NULL);
	pthread_cond_init(&c->not_full, NULL);
	c->cap = capacity;
	pthread_mutex_lock(&host_list);
	c->next = host_chan_list;
	if (host_chan_list)
		host_chan_list->prev = c;
	host_chan_list = c;
	host_chans++;
	pthread_mutex_unlock(&host_list);
	return c;
}

int brt_chan_send(struct brt_chan *c, uint64_t msg)
{
	pthread_mutex_lock(&c->m);
	while (c->count == c->cap && !c->closed && !brt_stopping())
		pthread_cond_wait(&c->not_full, &c->m);
	if (c->closed || brt_stopping()) {
		pthread_mutex_unlock(&c->m);
		return -1;
	}
	c->buf[(c->head + c->count) % c->cap] = msg;
	c->count++;
	pthread_cond_signal(&c->not_empty);
	pthread_mutex_unlock(&c->m);
	return 0;
}

int brt_chan_recv(struct brt_chan *c, uint64_t *msg)
{
	pthread_mutex_lock(&c->m);
	while (c->count == 0 && !c->closed && !brt_stopping())
		pthread_cond_wait(&c->not_empty, &c->m);
	if (c->count == 0 || brt_stopping()) {
		pthread_mutex_unlock(&c->m);
		return -1;
	}
	*msg = c->buf[c->head];
	c->head = (c->head + 1) % c->cap;
	c->count--;
	pthread_cond_signal(&c->not_full);
	pthread_mutex_unlock(&c->m);
	return 0;
}

void brt_chan_close(struct brt_chan *c)
{
	pthread_mutex_lock(&c->m);
	c->closed = 1;
	pthread_cond_broadcast(&c->not_empty);
	pthread_cond_broadcast(&c->not_full);
	pthread_mutex_unlock(&c->m);
}

void brt_chan_free(struct brt_chan *c)
{
	pthread_mutex_lock(&host_list);
	if (c->prev)
		c->prev->next = c->next;
	else
		host_chan_list = c->next;
	if (c->next)
		c->next->prev = c->prev;
	host_chans--;
	pthread_mutex_unlock(&host_list);
	pthread_mutex_destroy(&c->m);
	pthread_cond_destroy(&c->not_empty);
	pthread_cond_destroy(&c->not_full);
	free(c->buf);
	free(c);
}

/* Allocations carry their size in front, to count the bytes outstanding. */
void *brt_calloc(size_t count, size_t size)
{
	if (!count || !size || count > (SIZE_MAX - 16) / size)
		return NULL;
	size_t *p = calloc(1, count * size + 16);
	if (!p)
		return NULL;
	p[0] = count * size;
	__atomic_add_fetch(&host_bytes, (long)p[0], __ATOMIC_RELAXED);
	return (char *)p + 16;
}

void brt_free(void *q)
{
	if (!q)
		return;
	size_t *p = (size_t *)((char *)q - 16);
	__atomic_sub_fetch(&host_bytes, (long)p[0], __ATOMIC_RELAXED);
	free(p);
}

void brt_host_begin(void)
{
	__atomic_store_n(&host_stop, 0, __ATOMIC_RELEASE);
}

void brt_host_stop(void)
{
	__atomic_store_n(&host_stop, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&host_list);
	for (struct brt_chan *c = host_chan_list; c; c = c->next) {
		pthread_mutex_lock(&c->m);
		pthread_cond_broadcast(&c->not_empty);
		pthread_cond_broadcast(&c->not_full);
		pthread_mutex_unlock(&c->m);
	}
	pthread_mutex_unlock(&host_list);
}

int brt_host_live(void)
{
	return __atomic_load_n(&host_live, __ATOMIC_RELAXED);
}

int brt_host_channels(void)
{
	pthread_mutex_lock(&host_list);
	int n = host_chans;
	pthread_mutex_unlock(&host_list);
	return n;
}

long brt_host_bytes(void)
{
	return __atomic_load_n(&host_bytes, __ATOMIC_RELAXED);
}
