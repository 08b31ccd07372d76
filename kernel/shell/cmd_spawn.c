/* SPDX-License-Identifier: BSD-2-Clause */
/* cmd_spawn.c — `spawn`: start N CPU-bound or sleep/wake threads by hand,
 * doing their CPU work through work() (work.h), and report what each got
 * done once the last of them ends. */
#include <shell/shell.h>
#include <thread/thread.h>
#include <lib/parse.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <arch/x86_64/smp/smp.h>
#include <arch/x86_64/clock/time.h>
#include <mm/mm.h>
#include <bench/work.h>
#include <lib/strbuf.h>
#include <kern/console.h>
#include <kern/panic.h>
#include <emul/emul_workclock.h>
#include <lib/itd_names.h>
#include <shell/cmd_thread.h>

#define SPAWN_MAX 512
#define SPAWN_WORK_NS 1000000ull        /* a thread's step: 1 ms of P-core work */
#define SPAWN_SLEEP_NS 10000000ull      /* a sleeper's sleep after each step */
#define SPAWN_REPORT_THREADS 8          /* per-thread report lines at most */
#define SPAWN_REPORT_BYTES 1280         /* holds the longest report (8 lines of < 110) */

struct spawn_job;

/* What one thread got done, filled by the thread as it ends. */
struct spawn_slot {
	struct spawn_job *job;
	uint32_t id;
	int cpu;                 /* where it ended */
	int has_work;            /* a work clock counted (emulated machine) */
	uint64_t run_ns, work;
};

/* One `spawn` command's threads. Freed by whoever drops the last
 * reference: each running thread holds one, and the command one while it
 * starts them. */
struct spawn_job {
	uint64_t end_ns;
	int sleeper;
	unsigned refs;
	unsigned n;              /* threads started; set before the command's put */
	uint64_t ms;
	unsigned cls;            /* Thread Director class of their work (class=) */
	uint64_t free_ns;        /* 0, or when their cpus= affinity ends (free=) */
	struct spawn_slot slot[];
};

/* The end report: a total, then up to SPAWN_REPORT_THREADS threads; built
 * whole and written in one piece, so reports of groups that end together
 * do not interleave. */
static void spawn_report(const struct spawn_job *job)
{
	const char *kind = job->sleeper ? "sleep" : "cpu";
	uint64_t run = 0, work = 0;
	int has_work = 1;
	char text[SPAWN_REPORT_BYTES], wbuf[24], sbuf[16];
	struct strbuf sb;
	strbuf_init(&sb, text, sizeof(text));
	for (unsigned i = 0; i < job->n; i++) {
		run += job->slot[i].run_ns;
		work += job->slot[i].work;
		has_work &= job->slot[i].has_work;
	}
	strbuf_printf(&sb, "spawn: %u %s threads done after %lu ms%s%s: run %lu ms", job->n, kind,
		      job->ms, job->cls ? ", class " : "", job->cls ? itd_class_name(job->cls) : "",
		      run / 1000000);
	if (has_work) {
		cmd_work_text(work, run, wbuf, sizeof(wbuf), sbuf, sizeof(sbuf));
		strbuf_printf(&sb, ", work %s ms, speed %s", wbuf, sbuf);
	}
	strbuf_putc(&sb, '\n');
	for (unsigned i = 0; i < job->n && i < SPAWN_REPORT_THREADS; i++) {
		const struct spawn_slot *s = &job->slot[i];
		strbuf_printf(&sb, "spawn:   %s/%u thread %u ended on cpu %d: run %lu ms", kind, i,
			      s->id, s->cpu, s->run_ns / 1000000);
		if (s->has_work) {
			cmd_work_text(s->work, s->run_ns, wbuf, sizeof(wbuf), sbuf, sizeof(sbuf));
			strbuf_printf(&sb, ", work %s ms, speed %s", wbuf, sbuf);
		}
		strbuf_putc(&sb, '\n');
	}
	if (job->n > SPAWN_REPORT_THREADS)
		strbuf_printf(&sb, "spawn:   (%u more)\n", job->n - SPAWN_REPORT_THREADS);
	KASSERT(strbuf_ok(&sb), "spawn report longer than %d bytes", SPAWN_REPORT_BYTES);
	console_write(text, sb.len);
}

/* Drops one reference; the last one reports and frees the job. */
static void spawn_job_put(struct spawn_job *job)
{
	if (__atomic_sub_fetch(&job->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (job->n)
		spawn_report(job);
	kfree(job);
}

/* What the calling thread has done so far: guest time, run time, work. */
struct spawn_progress {
	uint64_t at_ns, run_ns, work;
};

/* The calling thread's progress now; *has_work: a work clock counted. */
static struct spawn_progress spawn_progress_now(int *has_work)
{
	struct spawn_progress p = { .at_ns = time_ns(), .run_ns = thread_self_run_ns() };
	*has_work = emul_workclock_self(&p.work) == 0;
	return p;
}

/* Progress at guest time end, between before (<= end) and after (> end):
 * the last step's run and work shared out in proportion to its guest time.
 * A thread notices the end only after a step, and a vCPU the host did not
 * run for a while finishes that step late, so without this its account
 * would run past the spawn's end by that while (off by at most one step). */
static struct spawn_progress spawn_progress_at(struct spawn_progress before,
					       struct spawn_progress after, uint64_t end)
{
	if (after.at_ns <= end || after.at_ns <= before.at_ns)
		return after;
	uint64_t part = end - before.at_ns, whole = after.at_ns - before.at_ns;
	while (whole >> 32) {              /* a 32-bit fraction: no 128-bit division */
		part >>= 1;
		whole >>= 1;
	}
	uint64_t frac = (part << 32) / whole;
	return (struct spawn_progress){
		.at_ns = end,
		.run_ns = before.run_ns + (uint64_t)(((unsigned __int128)(after.run_ns - before.run_ns) * frac) >> 32),
		.work = before.work + (uint64_t)(((unsigned __int128)(after.work - before.work) * frac) >> 32),
	};
}

/* Body of a `spawn` thread (arg: its slot). Does work_class() in steps of 1 ms
 * of P-core work, alone or each followed by 10 ms of sleep, until the end
 * time (from free=, on every CPU); then records what it got done by the
 * end time. */
static void spawn_main(void *arg)
{
	struct spawn_slot *s = arg;
	struct spawn_job *job = s->job;
	uint64_t free_ns = job->free_ns;
	int has_work;
	struct spawn_progress before = spawn_progress_now(&has_work), after = before;
	while (after.at_ns < job->end_ns) {
		before = after;
		if (free_ns && before.at_ns >= free_ns) {
			thread_set_affinity(thread_current(), NULL);
			free_ns = 0;
		}
		work_class(SPAWN_WORK_NS, job->cls);
		if (job->sleeper)
			thread_sleep_ns(SPAWN_SLEEP_NS);
		after = spawn_progress_now(&has_work);
	}
	struct spawn_progress done = spawn_progress_at(before, after, job->end_ns);
	s->id = thread_id(thread_current());
	s->cpu = (int)cpu_current();
	s->run_ns = done.run_ns;
	s->work = done.work;
	s->has_work = has_work;
	spawn_job_put(job);
}

/* pin=LIST of a spawn of n threads: thread i's CPU, the i-th of the list (n
 * online CPUs, repeats allowed), in a kmalloc'd array the caller frees; NULL
 * after a message. */
static unsigned *spawn_parse_pins(const char *list, unsigned n)
{
	char err[128];
	unsigned *pins = kmalloc(n * sizeof(*pins));
	if (!pins) {
		printk("spawn: out of memory\n");
		return NULL;
	}
	int count = cpulist_parse_seq(list, smp_cpu_count(), pins, n, err, sizeof(err));
	unsigned offline = n;   /* the first pin on an offline CPU, n for none */
	for (unsigned i = 0; count == (int)n && i < n && offline == n; i++)
		if (!smp_cpu_online(pins[i]))
			offline = i;
	if (count < 0)
		printk("spawn: pin: %s\n", err);
	else if (count != (int)n)
		printk("spawn: pin: '%.*s' names %d CPUs for %u threads (one each)\n", PARSE_ECHO_MAX,
		       list, count, n);
	else if (offline < n)
		printk("spawn: pin: cpu %u is not online\n", pins[offline]);
	else
		return pins;
	kfree(pins);
	return NULL;
}

/* `spawn N cpu|sleep [cpus=SET|pin=LIST] [ms=DURATION] [class=CLASS] [free=MS]`:
 * every argument checked before the first thread starts. */
static int cmd_spawn(int argc, char **argv)
{
	uint64_t n, ms = 10000, free_ms = 0;
	int cls = ITD_SCALAR;
	struct cpuset mask;
	int have_mask = 0, sleeper;
	const char *pin_list = NULL;
	if (!thread_sched_running()) {
		printk("spawn: the scheduler is off (sched=off)\n");
		return 1;
	}
	if (shell_arg_u64("spawn", "N", argv[1], 0, 1, SPAWN_MAX, &n))
		return 1;
	if (strcmp(argv[2], "cpu") == 0)
		sleeper = 0;
	else if (strcmp(argv[2], "sleep") == 0)
		sleeper = 1;
	else {
		printk("spawn: kind must be cpu or sleep\n");
		return 1;
	}
	for (int i = 3; i < argc; i++) {
		if (strncmp(argv[i], "cpus=", 5) == 0) {
			if (cmd_parse_cpus("spawn", argv[i] + 5, &mask))
				return 1;
			have_mask = 1;
		} else if (strncmp(argv[i], "pin=", 4) == 0) {
			pin_list = argv[i] + 4;
		} else if (strncmp(argv[i], "ms=", 3) == 0) {
			if (shell_arg_u64("spawn", "ms", argv[i] + 3, 0, 1, SHELL_MS_MAX, &ms))
				return 1;
		} else if (strncmp(argv[i], "free=", 5) == 0) {
			if (shell_arg_u64("spawn", "free", argv[i] + 5, 0, 1, SHELL_MS_MAX, &free_ms))
				return 1;
		} else if (strncmp(argv[i], "class=", 6) == 0) {
			cls = itd_class_by_name(argv[i] + 6);
			if (cls < 0) {
				printk("spawn: unknown class '%.*s' (expected scalar, vector, vnni, spin "
				       "or 0..7)\n", PARSE_ECHO_MAX, argv[i] + 6);
				return 1;
			}
		} else {
			printk("spawn: unknown argument '%.*s' (cpus=LIST, pin=LIST, ms=DURATION, "
			       "class=CLASS or free=MS)\n", PARSE_ECHO_MAX, argv[i]);
			return 1;
		}
	}
	if (have_mask && pin_list) {
		printk("spawn: cpus= and pin= both set the threads' CPUs: give one\n");
		return 1;
	}
	if (free_ms && !have_mask && !pin_list) {
		printk("spawn: free=MS ends a cpus= or pin= affinity: give one of them too\n");
		return 1;
	}
	unsigned *pins = NULL;
	if (pin_list && !(pins = spawn_parse_pins(pin_list, (unsigned)n)))
		return 1;
	struct spawn_job *job = kzalloc(sizeof(*job) + n * sizeof(job->slot[0]));
	if (!job) {
		printk("spawn: out of memory\n");
		kfree(pins);
		return 1;
	}
	job->end_ns = time_ns() + ms * 1000000;
	job->sleeper = sleeper;
	job->ms = ms;
	job->cls = (unsigned)cls;
	job->free_ns = free_ms ? time_ns() + free_ms * 1000000 : 0;
	job->refs = 1;
	struct thread_attr attr = { .affinity = have_mask ? &mask : NULL, .detached = 1 };
	unsigned made = 0;
	for (; made < n; made++) {
		char name[THREAD_NAME_MAX];
		ksnprintf(name, sizeof(name), "%s/%u", argv[2], made);
		job->slot[made].job = job;
		if (pins) {
			cpuset_zero(&mask);
			cpuset_set(&mask, pins[made]);
			attr.affinity = &mask;
		}
		__atomic_add_fetch(&job->refs, 1, __ATOMIC_RELAXED);
		if (!thread_create(name, spawn_main, &job->slot[made], &attr)) {
			__atomic_sub_fetch(&job->refs, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	kfree(pins);
	job->n = made;
	printk("spawn: started %u %s threads for %lu ms%s%s\n", made, argv[2], ms,
	       cls ? ", class " : "", cls ? itd_class_name((unsigned)cls) : "");
	spawn_job_put(job);
	return made == n ? 0 : 1;
}
SHELL_COMMAND(spawn, 2, 6,
	      "N cpu|sleep [cpus=MASK|LIST | pin=LIST] [ms=DURATION] [class=CLASS] [free=MS]",
	      "start N (1..512) CPU-bound or sleep/wake threads doing work() for 1..600000 ms "
	      "(default all CPUs, 10000 ms), as code of Thread Director class CLASS (scalar, vector, "
	      "vnni, spin or 0..7; default scalar); cpus= gives every thread the set, pin= thread i "
	      "the i-th CPU of its list (N CPUs, repeats allowed), for the first free= MS only if "
	      "given; a report when they are done", cmd_spawn);
