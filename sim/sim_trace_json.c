/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_trace_json.c — schedsim --trace FILE.json: the placement segments
 * of every run as Chrome trace-event JSON (the "JSON Object Format" of
 * the Trace Event Format, which Perfetto and chrome://tracing open),
 * beside the CSV blocks of schema trace/1 (sim_report.c) that --trace
 * writes for any other name. One process per run ("POLICY, T threads, run
 * R"), one track per CPU ("CPU n (P)"), one complete event ("ph":"X") per
 * segment, named after the thread and coloured by the CPU's core type;
 * one global instant event ("ph":"i","s":"g") per HFI row the emulated
 * device rewrote during the run (a machine description's `event` lines),
 * with the row, its CPUs and its new values; times in microseconds with
 * nanosecond decimals.
 */
#include <stdio.h>
#include <emul/machine_desc/machine.h>
#include <lib/cpu_desc.h>
#include <sim/sim.h>
#include <sim/sim_report.h>

/* Chrome's reserved colour names, one per core type. */
static const char *core_colour(unsigned type)
{
	switch (type) {
	case CPU_CORE_P:
		return "thread_state_running";   /* green */
	case CPU_CORE_E:
		return "rail_response";          /* blue */
	case CPU_CORE_LPE:
		return "rail_animation";         /* violet */
	default:
		return "generic_work";           /* grey: not hybrid */
	}
}

/* See sim_report.h. */
void sim_trace_json_begin(FILE *f)
{
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
}

/* t nanoseconds as trace-event microseconds. */
static void put_us(FILE *f, uint64_t t)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(t / 1000), (unsigned long long)(t % 1000));
}

/* See sim_report.h. */
void sim_trace_json_run(FILE *f, const struct sim_sweep *sw, int p, int c, int r, const struct sim_result *res,
			int first)
{
	int pid = (p * BENCH_MAX_COLS + c) * 1024 + r + 1;
	const struct machine *m = &sw->sm->m;
	fprintf(f, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,"
		"\"args\":{\"name\":\"%s, %d threads, run %d\"}}",
		first ? "" : ",\n", pid, sw->pol[p].name, sw->threads[c], r + 1);
	for (unsigned cpu = 0; cpu < m->cpu_count; cpu++)
		fprintf(f, ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%u,"
			"\"args\":{\"name\":\"CPU %u (%s)\"}}", pid, cpu, cpu,
			machine_core_type_name(m->cpu[cpu].type));
	for (size_t i = 0; i < res->nseg; i++) {
		const struct sim_seg *s = &res->seg[i];
		fprintf(f, ",\n{\"ph\":\"X\",\"name\":\"thread %u\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%u,\"ts\":",
			s->thread, machine_core_type_name(m->cpu[s->cpu].type), pid, s->cpu);
		put_us(f, s->start);
		fprintf(f, ",\"dur\":");
		put_us(f, s->end - s->start);
		fprintf(f, ",\"cname\":\"%s\",\"args\":{\"thread\":%u,\"start_ns\":%llu,\"end_ns\":%llu}}",
			core_colour(m->cpu[s->cpu].type), s->thread, (unsigned long long)s->start,
			(unsigned long long)s->end);
	}
	for (size_t i = 0; i < res->nhfi; i++) {
		const struct sim_hfi_mark *h = &res->hfi[i];
		fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"g\",\"name\":\"HFI update\",\"cat\":\"hfi\",\"pid\":%d,\"tid\":0,\"ts\":",
			pid);
		put_us(f, h->t);
		fprintf(f, ",\"args\":{\"row\":%u,\"perf\":%u,\"ee\":%u,\"cpus\":\"", h->row, h->perf, h->ee);
		for (unsigned cpu = 0, n = 0; cpu < m->cpu_count; cpu++)
			if (m->cpu[cpu].hfi_row == (int)h->row)
				fprintf(f, "%s%u", n++ ? "," : "", cpu);
		fprintf(f, "\",\"ns\":%llu}}", (unsigned long long)h->t);
	}
}

/* See sim_report.h. */
void sim_trace_json_end(FILE *f)
{
	fprintf(f, "\n]}\n");
}
