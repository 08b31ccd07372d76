/*
 * cmd_topo.c — the `topo` command and the kern.sched.topology_spec sysctl:
 * kernel glue that builds the cpu_group tree (kernel/sched/topo.h) from the
 * descriptors of the online CPUs (smp.h) and prints it: the kind of tree
 * the scheduler uses (kern.sched.topology), or for `topo KIND` that kind.
 */
#include <shell.h>
#include <sysctl.h>
#include <printk.h>
#include <smp.h>
#include <string.h>
#include <thread.h>
#include "../sched/topo.h"

_Static_assert(TOPO_MAXCPU == MAXCPU, "the topology tree and SMP disagree on MAXCPU");

/* Big enough for the XML of MAXCPU CPUs (about 36 KiB for 256; see test_topo). */
#define TOPOLOGY_SPEC_SIZE (64 * 1024)

static struct topo shell_topo;
static struct cpu_desc shell_descs[MAXCPU];

/* Rebuilds shell_topo of kind from the online CPUs' descriptors, with the
 * scheduler's fallbacks (ours for a FreeBSD tree its probe refuses, flat
 * for contradicting descriptors); returns what topo_build_or_flat
 * returned. Shell context only (static storage, no lock). */
static int build_online(int kind)
{
	struct cpuset online;
	unsigned n = smp_cpu_count();
	if (n > MAXCPU)
		n = MAXCPU;
	cpuset_zero(&online);
	for (unsigned i = 0; i < n; i++) {
		const struct cpu_desc *d = smp_cpu_online(i) ? smp_cpu_desc(i) : NULL;
		if (d) {
			shell_descs[i] = *d;
			cpuset_set(&online, i);
		} else {
			memset(&shell_descs[i], 0, sizeof(shell_descs[i]));
		}
	}
	return topo_build_or_flat(&shell_topo, kind, shell_descs, n, &online);
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

static int cmd_topo(int argc, char **argv)
{
	int kind = argc > 1 ? topo_kind_find(argv[1]) : thread_topo_kind();
	if (kind < 0) {
		printk("topo: unknown tree '%s' (mosaic or freebsd)\n", argv[1]);
		return 1;
	}
	int rc = build_online(kind);
	unsigned total = smp_cpu_count();
	if (!shell_topo.root) {
		printk("topo: cannot build the topology: %s\n", shell_topo.error);
		return 1;
	}
	if (rc == TOPO_ERR_UNMODELLED)
		printk("topo: no FreeBSD tree (%s): the mosaic tree instead\n", shell_topo.error);
	else if (rc != TOPO_OK)
		printk("topo: inconsistent descriptors (%s): the flat fallback the scheduler uses\n",
		       shell_topo.error);

	topo_print(&shell_topo, topo_printk, NULL);
	if ((unsigned)shell_topo.ncpus < total)
		printk("(%u of %u CPUs online; offline CPUs are not in the tree)\n",
		       (unsigned)shell_topo.ncpus, total);
	return 0;
}
SHELL_COMMAND(topo, 0, 1, "[mosaic|freebsd]",
	      "show the scheduler's CPU topology tree (cpu_groups), or the named kind of tree", cmd_topo);

/* The value of kern.sched.topology_spec: the tree as FreeBSD-style XML. */
static void topology_spec_proc(char *buf, size_t len)
{
	struct spec_buf b = { buf, len, 0 };
	buf[0] = 0;
	build_online(thread_topo_kind());
	if (!shell_topo.root) {
		ksnprintf(buf, len, "<groups>\n<!-- no topology: %s -->\n</groups>\n", shell_topo.error);
		return;
	}
	topo_print_spec(&shell_topo, topo_bufprintf, &b);
}
SYSCTL_PROC_LONG(kern_sched_topology_spec, "kern.sched.topology_spec", topology_spec_proc,
		 TOPOLOGY_SPEC_SIZE, "CPU topology tree as XML (FreeBSD format)");
