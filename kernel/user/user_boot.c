/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * user_boot.c — user mode at boot: the boot archive, the CPUs, the reaper
 * and init (docs/userland.md, "Boot"); and the shell's way to start
 * programs (user.h).
 */
#include <user/uproc.h>
#include <user/archive.h>
#include <user/uargs.h>
#include <user/ulayout.h>
#include <lib/cmdline.h>
#include <mm/mm.h>
#include <kern/panic.h>
#include <kern/printk.h>
#include <lib/string.h>
#include <user/user.h>
#include <arch/x86_64/cpu/user_cpu.h>
#include <arch/x86_64/trap/trap.h>

#define ARCHIVE_MODULE "userland.cpio"
#define INIT_PROGRAM   "init"
#define INIT_SCRIPT    "init.rc"
#define INIT_READY_NS  (10ull * 1000000000ull)

static struct archive user_archive;
static int user_up;

/* See uproc.h. */
const struct archive_file *user_archive_find(const char *name)
{
	return archive_find(&user_archive, name);
}

/* See user.h. */
int user_ready(void)
{
	return __atomic_load_n(&user_up, __ATOMIC_ACQUIRE);
}

/* The boot archive among the loader's modules: parsed into user_archive;
 * 0, or -1 after saying why. */
static int user_unpack(const struct boot_info *bi)
{
	for (uint32_t i = 0; i < bi->module_count && i < BOOT_MODULES_MAX; i++) {
		const struct boot_module *m = &bi->modules[i];
		if (strncmp(m->name, ARCHIVE_MODULE, sizeof(m->name)) != 0)
			continue;
		char err[ARCHIVE_ERR_MAX];
		if (archive_parse(phys_to_virt(m->phys), m->size, &user_archive, err, sizeof(err))) {
			user_archive.count = 0;
			printk("user: module %s: %s; no user programs\n", ARCHIVE_MODULE, err);
			return -1;
		}
		printk("user: module %s: %u files, %lu bytes\n", ARCHIVE_MODULE, user_archive.count,
		       m->size);
		return 0;
	}
	printk("user: no module %s (module= in mosaic.cfg); no user programs\n", ARCHIVE_MODULE);
	return -1;
}

/* init's arguments: "init", then each line of init.rc that is not blank
 * or a comment. 0, or -1 after naming init.rc:LINE and what is wrong (init
 * then starts without a script). */
static int user_init_args(struct uargs *a)
{
	uargs_init(a);
	uargs_add(a, INIT_PROGRAM);
	const struct archive_file *f = user_archive_find(INIT_SCRIPT);
	if (!f)
		return 0;
	char line[SPAWN_ARG_MAX];
	uint64_t pos = 0, n = 0, lineno = 1;
	for (; pos <= f->size; pos++) {
		char c = pos < f->size ? (char)f->data[pos] : '\n';
		if (c != '\n') {
			if ((c < ' ' || c > '~') && c != '\t') {
				printk("user: %s:%lu: byte 0x%02x is not printable text\n", INIT_SCRIPT,
				       lineno, (unsigned)(uint8_t)c);
				return -1;
			}
			if (n + 1 >= sizeof(line)) {
				printk("user: %s:%lu: line longer than %u characters\n", INIT_SCRIPT,
				       lineno, SPAWN_ARG_MAX - 1);
				return -1;
			}
			line[n++] = c == '\t' ? ' ' : c;
			continue;
		}
		line[n] = 0;
		const char *s = line;
		while (*s == ' ')
			s++;
		if (*s && *s != '#' && uargs_add(a, s)) {
			printk("user: %s:%lu: more than %u lines or %u bytes of commands\n", INIT_SCRIPT,
			       lineno, SPAWN_ARGC_MAX - 1, SPAWN_ARGS_TOTAL);
			return -1;
		}
		n = 0;
		lineno++;
	}
	return 0;
}

/* Starts init and waits until it said it is ready (its script is done), it
 * ended, or INIT_READY_NS passed. */
static void user_start_init(void)
{
	struct uargs *a = kmalloc(sizeof(*a));
	if (!a) {
		printk("user: no memory for init's arguments\n");
		return;
	}
	if (user_init_args(a)) {
		printk("user: %s refused; init starts without a script\n", INIT_SCRIPT);
		uargs_init(a);
		uargs_add(a, INIT_PROGRAM);
	}
	int pid = proc_spawn(NULL, INIT_PROGRAM, a, NULL, NULL, 0,
			     PROC_DETACHED | PROC_GIVE_NICE | PROC_OPERATOR);
	kfree(a);
	if (pid < 0) {
		printk("user: cannot start %s: %s\n", INIT_PROGRAM, user_strerror(pid));
		return;
	}
	uint64_t deadline = uwait_deadline(INIT_READY_NS);
	int ready = 0;
	uint64_t flags = spin_lock_irqsave(&user_lock);
	for (;;) {
		struct proc *p = proc_find(pid);
		struct uwait w;
		if (!p || p->state != PROC_LIVE || (ready = p->ready))
			break;
		if (uwait_sleep(&p->ready_chan, &w, deadline) == UW_TIMEOUT)
			break;
	}
	spin_unlock_irqrestore(&user_lock, flags);
	printk("user: init is pid %d%s\n", pid,
	       ready ? ", its script done" : " (not ready after 10 s; the shell starts anyway)");
}

/* The system-wide total of user pages: three quarters of the memory free
 * now, the rest stays the kernel's (threads, IPC buffers, the heap) so a
 * process that takes all it may still leaves the kernel whole. */
static void user_limit_pages(void)
{
	struct pmm_stats st;
	pmm_get_stats(&st);
	ulimit_set_pages_total((int64_t)(st.free_bytes / USER_PAGE / 4 * 3));
}

/* See user.h. */
void user_init(const struct boot_info *bi)
{
	if (!thread_sched_running()) {
		printk("user: the scheduler is off; no user mode\n");
		return;
	}
	for (int i = 0; i < SYS_COUNT; i++)
		KASSERT(syscall_table[i], "system call %d has no handler", i);
	struct user_cpu_features f;
	user_cpu_init(&f);
	printk("user: syscall/sysret; SMEP %s, SMAP %s, UMIP %s\n", f.smep ? "on" : "absent",
	       f.smap ? "on" : "absent", f.umip ? "on" : "absent");
	proc_reaper_start();
	user_limit_pages();
	__atomic_store_n(&user_up, 1, __ATOMIC_RELEASE);
	if (user_unpack(bi))
		return;
	if (strcmp(cmdline_choice("init"), "off") == 0) {
		printk("user: init=off: no init\n");
		return;
	}
	user_start_init();
}

/* See user.h. */
int user_spawn_kernel(const char *prog, int argc, char **argv, unsigned flags)
{
	if (!user_ready())
		return ERR_NOSYS;
	struct uargs *a = kmalloc(sizeof(*a));
	if (!a)
		return ERR_NOMEM;
	uargs_init(a);
	int rc = 0;
	for (int i = 0; i < argc && !rc; i++)
		rc = uargs_add(a, argv[i]);
	if (!rc)
		rc = proc_spawn(NULL, prog, a, NULL, NULL, 0,
				((flags & USER_RUN_FOREGROUND) ? PROC_FOREGROUND : PROC_DETACHED) |
				((flags & USER_RUN_NICE) ? PROC_GIVE_NICE : 0));
	kfree(a);
	return rc;
}

/* See user.h. */
void user_describe_end(const struct wait_info *wi, char *buf, size_t len)
{
	if (wi->how == WAIT_EXITED)
		ksnprintf(buf, len, "exited with status %d", wi->status);
	else if (wi->how == WAIT_KILLED)
		ksnprintf(buf, len, "was killed");
	else
		ksnprintf(buf, len, "faulted: %s at %lx",
			  trap_exception_name(wi->status >= 0 ? (uint64_t)wi->status : 32),
			  wi->addr);
}

/* See user.h. */
const char *user_strerror(int err)
{
	static const char *const text[] = {
		[-ERR_INVAL] = "invalid argument", [-ERR_FAULT] = "bad address",
		[-ERR_NOSYS] = "no such system call (or no user mode)",
		[-ERR_NOMEM] = "out of memory", [-ERR_PERM] = "not allowed",
		[-ERR_NOENT] = "no such program or name", [-ERR_SRCH] = "no such process",
		[-ERR_CHILD] = "no child", [-ERR_BADH] = "bad handle", [-ERR_TIMEOUT] = "timed out",
		[-ERR_DEAD] = "peer gone", [-ERR_NOSPC] = "system-wide limit reached", [-ERR_EXIST] = "exists",
		[-ERR_MSGSIZE] = "message too big", [-ERR_NOREPLY] = "no call to reply to",
		[-ERR_TOOBIG] = "too long", [-ERR_NOEXEC] = "not a valid program",
		[-ERR_BUSY] = "busy", [-ERR_LIMIT] = "over the process's limit",
		[-ERR_QUOTA] = "over its job's quota",
	};
	if (err < 0 && -err < (int)(sizeof(text) / sizeof(text[0])) && text[-err])
		return text[-err];
	return "error";
}
