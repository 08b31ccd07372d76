/* SPDX-License-Identifier: BSD-2-Clause */
/* init — the first process: runs the lines of init.rc, which the kernel
 * passes as its arguments, one program per line ("name args...", a final
 * "&" runs it in the background: init waits until it called ready(), at
 * most 5 s, then goes on), each in a job of its own. Then says it is ready
 * (the kernel starts the shell) and collects its children as they end. */
#include <stdio.h>
#include <string.h>
#include <mosaic.h>

#define WORDS_MAX 16
#define CHILDREN_MAX 32
#define READY_TIMEOUT_NS (5ull * 1000000000ull)

struct child {
	int pid;
	char name[PROC_NAME_MAX];
};

static struct child children[CHILDREN_MAX];

/* Splits line in place into words; returns how many (at most max). */
static int split(char *line, char **words, int max)
{
	int n = 0;
	for (char *s = line; *s && n < max;) {
		while (*s == ' ')
			*s++ = 0;
		if (!*s)
			break;
		words[n++] = s;
		while (*s && *s != ' ')
			s++;
	}
	return n;
}

static void remember(int pid, const char *name)
{
	for (int i = 0; i < CHILDREN_MAX; i++) {
		if (!children[i].pid) {
			children[i].pid = pid;
			strlcpy(children[i].name, name, sizeof(children[i].name));
			return;
		}
	}
}

static const char *name_of(int pid)
{
	for (int i = 0; i < CHILDREN_MAX; i++)
		if (children[i].pid == pid)
			return children[i].name;
	return "?";
}

/* Prints how a child ended when that is worth saying. */
static void report(const struct wait_info *wi, int always)
{
	if (wi->how == WAIT_EXITED && wi->status == 0 && !always)
		return;
	if (wi->how == WAIT_EXITED)
		printf("init: %s (pid %d) exited with status %d\n", name_of(wi->pid), wi->pid, wi->status);
	else if (wi->how == WAIT_KILLED)
		printf("init: %s (pid %d) was killed\n", name_of(wi->pid), wi->pid);
	else
		printf("init: %s (pid %d) faulted (vector %d at %lx)\n", name_of(wi->pid), wi->pid,
		       wi->status, wi->addr);
}

/* Runs one line of the script. */
static void run_line(char *line)
{
	char *words[WORDS_MAX];
	int n = split(line, words, WORDS_MAX), background = 0;
	if (n > 0 && strcmp(words[n - 1], "&") == 0) {
		background = 1;
		n--;
	}
	if (n == 0)
		return;
	int pid = spawn(words[0], n, (const char *const *)words, NULL, NULL, 0,
			SPAWN_NEW_JOB | (background ? SPAWN_WAIT_READY : 0), READY_TIMEOUT_NS);
	if (pid < 0) {
		printf("init: cannot start %s: %s\n", words[0], strerror(pid));
		return;
	}
	remember(pid, words[0]);
	if (background) {
		printf("init: started %s as pid %d in the background\n", words[0], pid);
		return;
	}
	struct wait_info wi;
	if (wait(pid, &wi, IPC_FOREVER) == pid)
		report(&wi, 0);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		run_line(argv[i]);
	ready();
	for (;;) {
		struct wait_info wi;
		int pid = wait(-1, &wi, IPC_FOREVER);
		if (pid > 0)
			report(&wi, 1);
		else
			sleep_ns(TIMEOUT_MAX_NS);   /* no child left: nothing to do */
	}
}
