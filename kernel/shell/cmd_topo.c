/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cmd_topo.c — the `topo` command: it prints the cpu_group tree
 * (kernel/sched/topo.h) the scheduler uses (thread_topo_live()), or for
 * `topo KIND` of another kind a tree of that kind built from the online
 * CPUs' descriptors as the scheduler builds its own
 * (thread_topo_build_online()). kern.sched.topology_spec, the live tree as
 * XML, is in kernel/thread/sched_sysctl.c.
 */
#include <shell/shell.h>
#include <kern/printk.h>
#include <arch/x86_64/smp/smp.h>
#include <lib/string.h>
#include <thread/thread.h>
#include <sched/topo.h>

_Static_assert(TOPO_MAXCPU == MAXCPU, "the topology tree and SMP disagree on MAXCPU");

static struct topo shell_topo;            /* a tree of another kind than the live one */
static struct cpu_desc shell_descs[MAXCPU];

/* The tree of kind: the scheduler's own when it is of that kind, else one
 * built into shell_topo; *rc says what its build returned. NULL root when
 * none could be built. Shell context only (static storage, no lock). */
static const struct topo *topo_of_kind(int kind, int *rc)
{
	const struct topo *live = thread_topo_live(rc);
	if (live && live->kind == kind)
		return live;
	*rc = thread_topo_build_online(&shell_topo, kind, shell_descs);
	return &shell_topo;
}

/* topo_printf_fn onto the consoles. */
static void topo_printk(void *ctx, const char *fmt, ...)
{
	(void)ctx;
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}

static int cmd_topo(int argc, char **argv)
{
	int kind = argc > 1 ? topo_kind_find(argv[1]) : thread_topo_kind();
	if (kind < 0) {
		printk("topo: unknown tree '%s' (mosaic or freebsd)\n", argv[1]);
		return 1;
	}
	int rc;
	const struct topo *t = topo_of_kind(kind, &rc);
	unsigned total = smp_cpu_count();
	if (!t->root) {
		printk("topo: cannot build the topology: %s\n", t->error);
		return 1;
	}
	if (rc == TOPO_ERR_UNMODELLED)
		printk("topo: no FreeBSD tree (%s): the mosaic tree instead\n", t->error);
	else if (rc != TOPO_OK)
		printk("topo: inconsistent descriptors (%s): the flat fallback the scheduler uses\n",
		       t->error);

	topo_print(t, topo_printk, NULL);
	if ((unsigned)t->ncpus < total)
		printk("(%u of %u CPUs online; offline CPUs are not in the tree)\n",
		       (unsigned)t->ncpus, total);
	return 0;
}
SHELL_COMMAND(topo, 0, 1, "[mosaic|freebsd]",
	      "show the scheduler's CPU topology tree (cpu_groups), or the named kind of tree", cmd_topo);
