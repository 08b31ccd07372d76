/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_sched_trace.c — `sched trace`: switching the kernel's scheduler
 * trace (kernel/thread/sched_trace.h) on and off, its status, and its dump
 * as CSV blocks (kernel/bench/bench_csv.h) that tools/sched-trace.py turns
 * into Chrome trace-event JSON. docs/sched.md, "The scheduler trace",
 * specifies the blocks. Shell thread only.
 */
#include <shell/shell.h>
#include <shell/cmd_sched.h>
#include <kern/printk.h>
#include <lib/parse.h>
#include <lib/string.h>
#include <lib/cpu_desc.h>
#include <arch/x86_64/smp/smp.h>
#include <thread/sched_trace.h>
#include <sched/sched_trace.h>
#include <bench/bench_csv.h>

/* The dump's output: one printk per piece (rows are shorter than its 512 bytes). */
static void trace_console(void *arg, const char *fmt, va_list ap)
{
	(void)arg;
	vprintk(fmt, ap);
}

static const struct bench_out trace_con = { trace_console, NULL };

static const char *const kind_names[] = { "", "switch", "wakeup", "migrate", "hfi" };
static const char *const why_names[] = { "", "wakeup", "switch", "bind", "balance", "steal", "affinity" };

/* "P", "E", "LP-E" or "none": the core type of cpu. */
static const char *core_name(unsigned cpu)
{
	const struct cpu_desc *d = cpu < smp_cpu_count() ? smp_cpu_desc(cpu) : NULL;
	switch (d ? d->core_type : CPU_CORE_UNKNOWN) {
	case CPU_CORE_P:
		return "P";
	case CPU_CORE_E:
		return "E";
	case CPU_CORE_LPE:
		return "LP-E";
	default:
		return "none";
	}
}

/* The window and the per-CPU counts: blocks sched-trace.window and
 * sched-trace.cpus. lost[cpu]: records refused while reading (overwritten
 * during the dump). */
static void dump_heads(const struct sched_trace_status *st, const uint64_t *lost)
{
	struct bench_csv c;
	static const char *const win[] = { "start_ns", "end_ns", "recording", "size", "names_dropped" };
	bench_csv_begin(&c, &trace_con, "sched-trace.window", "sched-trace-window/1");
	bench_csv_header(&c, win, 5);
	bench_csv_int(&c, (int64_t)st->start_ns);
	bench_csv_int(&c, (int64_t)st->end_ns);
	bench_csv_int(&c, st->on);
	bench_csv_int(&c, st->size);
	bench_csv_int(&c, st->names_dropped);
	bench_csv_row(&c);
	bench_csv_end(&c);
	static const char *const cpus[] = { "cpu", "core_type", "events", "dropped", "lost" };
	bench_csv_begin(&c, &trace_con, "sched-trace.cpus", "sched-trace-cpus/1");
	bench_csv_header(&c, cpus, 5);
	for (unsigned cpu = 0; cpu < st->ncpu; cpu++) {
		const struct trace_ring *r = sched_trace_ring(cpu);
		bench_csv_int(&c, cpu);
		bench_csv_str(&c, core_name(cpu));
		bench_csv_int(&c, (int64_t)trace_ring_written(r));
		bench_csv_int(&c, (int64_t)trace_ring_dropped(r));
		bench_csv_int(&c, (int64_t)lost[cpu]);
		bench_csv_row(&c);
	}
	bench_csv_end(&c);
}

/* The thread names seen: block sched-trace.threads. */
static void dump_names(void)
{
	struct bench_csv c;
	static const char *const cols[] = { "thread", "name" };
	uint32_t tid;
	const char *name;
	bench_csv_begin(&c, &trace_con, "sched-trace.threads", "sched-trace-threads/1");
	bench_csv_header(&c, cols, 2);
	for (unsigned i = 0; sched_trace_name(i, &tid, &name) == 0; i++) {
		if (!tid)
			continue;
		bench_csv_int(&c, tid);
		bench_csv_str(&c, name);
		bench_csv_row(&c);
	}
	bench_csv_end(&c);
}

/* One record as a row of sched-trace/1. */
static void dump_row(struct bench_csv *c, unsigned cpu, uint64_t seq, const struct trace_rec *r)
{
	unsigned kind = r->kind < 5 ? r->kind : 0;
	bench_csv_int(c, cpu);
	bench_csv_int(c, (int64_t)seq);
	bench_csv_int(c, (int64_t)r->ns);
	bench_csv_str(c, kind_names[kind]);
	if (kind == SCHED_TRACE_HFI)
		bench_csv_empty(c);
	else
		bench_csv_int(c, r->tid);
	if (kind == SCHED_TRACE_WAKEUP || kind == SCHED_TRACE_MIGRATE)
		bench_csv_int(c, r->a);
	else
		bench_csv_empty(c);
	bench_csv_int(c, kind == SCHED_TRACE_SWITCH ? cpu : kind == SCHED_TRACE_HFI ? r->a : r->b);
	if (kind == SCHED_TRACE_MIGRATE && r->why < 7)
		bench_csv_str(c, why_names[r->why]);
	else
		bench_csv_empty(c);
	if (kind == SCHED_TRACE_HFI) {
		bench_csv_int(c, r->b);
		bench_csv_int(c, r->c);
	} else {
		bench_csv_empty(c);
		bench_csv_empty(c);
	}
	bench_csv_row(c);
}

/* See cmd_sched.h. */
void sched_trace_cmd_dump(void)
{
	static uint64_t lost[MAXCPU];
	struct sched_trace_status st;
	sched_trace_get_status(&st);
	if (!st.size) {
		printk("sched trace: nothing recorded (sched trace on [SIZE] starts a trace)\n");
		return;
	}
	struct bench_csv c;
	struct trace_rec r;
	static const char *const cols[] = { "cpu", "seq", "time_ns", "event", "thread", "from_cpu", "to_cpu",
					    "why", "perf", "ee" };
	bench_csv_begin(&c, &trace_con, "sched-trace", "sched-trace/1");
	bench_csv_header(&c, cols, 10);
	for (unsigned cpu = 0; cpu < st.ncpu; cpu++) {
		const struct trace_ring *ring = sched_trace_ring(cpu);
		uint64_t end = trace_ring_written(ring);
		lost[cpu] = 0;
		for (uint64_t i = trace_ring_first(ring); i < end; i++) {
			if (trace_ring_get(ring, i, &r))
				lost[cpu]++;
			else
				dump_row(&c, cpu, i, &r);
		}
	}
	bench_csv_end(&c);
	dump_heads(&st, lost);
	dump_names();
}

/* See cmd_sched.h. */
int sched_trace_cmd_on(uint32_t size)
{
	if (sched_trace_start(size)) {
		printk("sched trace: no memory for %u records per CPU\n", size);
		return 1;
	}
	printk("sched trace: on, %u records per CPU (the newest are kept)\n", size);
	return 0;
}

/* `sched trace`: the status line. */
static void trace_status(void)
{
	struct sched_trace_status st;
	sched_trace_get_status(&st);
	if (!st.size) {
		printk("sched trace: off, nothing recorded\n");
		return;
	}
	printk("sched trace: %s, %u records per CPU, %u CPUs: %lu events, %lu dropped, over %lu ms\n",
	       st.on ? "on" : "off", st.size, st.ncpu, (unsigned long)st.events, (unsigned long)st.dropped,
	       (unsigned long)((st.end_ns - st.start_ns) / 1000000));
}

/* See cmd_sched.h. */
int cmd_sched_trace(int argc, char **argv)
{
	char err[96];
	if (argc == 2) {
		trace_status();
		return 0;
	}
	if (!strcmp(argv[2], "on") && argc <= 4) {
		uint64_t size = SCHED_TRACE_SIZE_DEFAULT;
		if (argc == 4 && parse_u64_range(argv[3], SCHED_TRACE_SIZE_MIN, SCHED_TRACE_SIZE_MAX, &size, "size",
						 err, sizeof(err))) {
			printk("sched trace: %s\n", err);
			return 1;
		}
		return sched_trace_cmd_on((uint32_t)size);
	}
	if (!strcmp(argv[2], "off") && argc == 3) {
		sched_trace_stop();
		trace_status();
		return 0;
	}
	if (!strcmp(argv[2], "dump") && argc == 3) {
		sched_trace_cmd_dump();
		return 0;
	}
	printk("sched trace: unknown or extra argument '%.*s' (expected: sched trace [on [SIZE] | off | dump])\n",
	       PARSE_ECHO_MAX, argc > 3 && (!strcmp(argv[2], "on") || !strcmp(argv[2], "off") ||
					   !strcmp(argv[2], "dump")) ? argv[argc - 1] : argv[2]);
	return 1;
}
