/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched_sysctl.c — the kernel's kern.sched.* sysctl tree, expanded from
 * the scheduler's variable table (kernel/sched/sched_vars.def, where each
 * variable is defined and documented): a number is a SYSCTL_INT with the
 * table's range, a word choice a handler over the table's words, and
 * kern.sched.primary also takes a CPU list of this machine. Plus the three
 * that are not variables: kern.sched.name, kern.sched.quantum and
 * kern.sched.topology_spec.
 * Names, meanings and defaults are those of FreeBSD's kern.sched.* in
 * sys/kern/sched_ule.c (the FreeBSD 14 generation), for hz = 100.
 *
 * Writes are single stores the core reads lock-free (a change takes effect
 * at the next decision); sysctl writes come from one shell thread.
 */
#include <lib/sysctl.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <lib/cpulist.h>
#include <thread/thread.h>
#include <sched/ule.h>
#include <sched/sched_vars.h>
#include <sched/sched_policy.h>

/* Writes v's current word into buf. */
static void words_get(const struct sched_var *v, char *buf, size_t len)
{
	size_t n;
	const char *w = sched_var_word(v, __atomic_load_n(v->var, __ATOMIC_RELAXED), &n);
	ksnprintf(buf, len, "%.*s", w ? (int)n : 1, w ? w : "?");
}

/* Sets v to the word value names: 0, or -1 with a message naming v. */
static int words_set(const struct sched_var *v, const char *value, char *err, size_t len)
{
	int64_t x = sched_var_word_value(v, value);
	if (x < 0) {
		ksnprintf(err, len, "%s: '%.32s' is not one of %s", v->name, value, v->words);
		return -1;
	}
	__atomic_store_n(v->var, x, __ATOMIC_RELAXED);
	return 0;
}

/* Every table line becomes a sysctl by its kind: a number a SYSCTL_INT, a
 * choice a handler calling get and set with the line's table entry. */
#define SV_SYSCTL_SV_NUMBER(var, nm, lo, hi, d) SYSCTL_INT(kern_sched_##var, nm, &var, 1, lo, hi, d);
#define SV_SYSCTL_HANDLER(var, nm, d, get, set)                                                     \
	static void get_##var(int index, char *buf, size_t len)                                    \
	{                                                                                           \
		(void)index;                                                                        \
		get(sched_var_of(&var), buf, len);                                                  \
	}                                                                                           \
	static int set_##var(int index, const char *value, char *err, size_t len)                 \
	{                                                                                           \
		(void)index;                                                                        \
		return set(sched_var_of(&var), value, err, len);                                    \
	}                                                                                           \
	SYSCTL_HANDLER(kern_sched_##var, nm, NULL, get_##var, set_##var, d);
#define SV_SYSCTL_SV_WORDS(var, nm, lo, hi, d) SV_SYSCTL_HANDLER(var, nm, d, words_get, words_set)
#define SV_SYSCTL_SV_WORDS_OR_CPUS(var, nm, lo, hi, d) SV_SYSCTL_HANDLER(var, nm, d, cpus_get, cpus_set)

/* kern.sched.primary's value: its word, or the CPU list it names. */
static void cpus_get(const struct sched_var *v, char *buf, size_t len)
{
	if (__atomic_load_n(v->var, __ATOMIC_ACQUIRE) == SCHED_PRIMARY_LIST)
		topo_cpulist(&sched_primary_list, buf, len);
	else
		words_get(v, buf, len);
}

/* A word of kern.sched.primary, or a non-empty CPU list of this machine. */
static int cpus_set(const struct sched_var *v, const char *value, char *err, size_t len)
{
	if (sched_var_word_value(v, value) >= 0)
		return words_set(v, value, err, len);
	struct cpuset list;
	char why[96], words[64];
	if (cpulist_parse(value, smp_cpu_count(), &list, why, sizeof(why))) {
		size_t n = 0;
		for (const char *w = v->words; *w && n + 3 < sizeof(words); w++) {
			if (*w == '|')
				words[n++] = ',';
			words[n++] = *w == '|' ? ' ' : *w;
		}
		words[n] = 0;
		ksnprintf(err, len, "%s: '%.40s' is not %s or a CPU list (%s)", v->name, value, words, why);
		return -1;
	}
	if (cpuset_empty(&list)) {
		ksnprintf(err, len, "%s: the list names no CPU", v->name);
		return -1;
	}
	sched_primary_list = list;
	__atomic_store_n(v->var, SCHED_PRIMARY_LIST, __ATOMIC_RELEASE);
	return 0;
}

#define SCHED_VAR(var, nm, grp, knd, dflt, lo, hi, wds, hzr, un, ref, d) SV_SYSCTL_##knd(var, nm, lo, hi, d)
#include <sched/sched_vars.def>
#undef SCHED_VAR

static char sched_name[] = "ULE";
SYSCTL_STRING(kern_sched_name, "kern.sched.name", sched_name, sizeof(sched_name), 0,
	      "scheduler in use");

/* kern.sched.quantum: the slice in microseconds (read-only; write kern.sched.slice). */
static void quantum_proc(char *buf, size_t len)
{
	ksnprintf(buf, len, "%ld", (long)(1000000 / sched_hz() * sched_slice));
}
SYSCTL_PROC(kern_sched_quantum, "kern.sched.quantum", quantum_proc,
	    "time slice in microseconds (from kern.sched.slice)");

/* Big enough for the XML of MAXCPU CPUs (about 36 KiB for 256; see test_topo). */
#define TOPOLOGY_SPEC_SIZE (64 * 1024)

struct spec_buf {
	char *buf;
	size_t len, pos;
};

/* topo_printf_fn into a spec_buf; output beyond its end is dropped. */
static void topo_bufprintf(void *ctx, const char *fmt, ...)
{
	struct spec_buf *b = ctx;
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(b->buf + b->pos, b->len - b->pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->pos += (size_t)n < b->len - b->pos ? (size_t)n : b->len - b->pos - 1;
}

/* kern.sched.topology_spec: the scheduler's live tree as FreeBSD-style XML. */
static void topology_spec_proc(char *buf, size_t len)
{
	struct spec_buf b = { buf, len, 0 };
	buf[0] = 0;
	int rc;
	const struct topo *t = thread_topo_live(&rc);
	if (!t || !t->root) {
		ksnprintf(buf, len, "<groups>\n<!-- no topology: %s -->\n</groups>\n",
			  t ? t->error : "the scheduler has not started");
		return;
	}
	topo_print_spec(t, topo_bufprintf, &b);
}
SYSCTL_PROC_LONG(kern_sched_topology_spec, "kern.sched.topology_spec", topology_spec_proc,
		 TOPOLOGY_SPEC_SIZE, "CPU topology tree as XML (FreeBSD format)");
