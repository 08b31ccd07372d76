/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sim_procs.c — items computed in child processes, taken in order
 * (sim_procs.h). The children share one counter (an anonymous shared
 * mapping) from which each takes the next item, so a slow item holds up
 * no other; each sends (item, length, bytes) through its own pipe, and
 * the parent keeps what arrives early until the items before it are in.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sim/sim.h>
#include <sim/sim_procs.h>

#define ITEM_MAX_BYTES (64u << 20)   /* a sane bound on one item's result */

struct item_head {
	uint64_t i, n;
};

/* Writes all n bytes of p to fd; 0, or -1 on an error. */
static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t k = write(fd, c, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Reads n bytes from fd into p: 1 when all came, 0 at the end of the
 * pipe before the first byte, -1 on an error or an end inside. */
static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;
	while (got < n) {
		ssize_t k = read(fd, c + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			return got ? -1 : 0;
		got += (size_t)k;
	}
	return 1;
}

/* A child's life: the next item not yet taken, until none is left. */
static void child(int fd, uint64_t *next, uint64_t count, sim_procs_make make, void *ctx)
{
	for (;;) {
		uint64_t i = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
		if (i >= count)
			_exit(0);
		const void *bytes;
		size_t n = make(i, ctx, &bytes);
		struct item_head h = { i, n };
		if (write_all(fd, &h, sizeof(h)) || write_all(fd, bytes, n))
			_exit(1);
	}
}

/* Child `which` ended with status: every child still running (pid > 0)
 * is stopped, and the run. */
static void stop_all(const pid_t *pid, int procs, int which, int status)
{
	for (int k = 0; k < procs; k++)
		if (pid[k] > 0)
			kill(pid[k], SIGTERM);
	for (int k = 0; k < procs; k++)
		if (pid[k] > 0)
			waitpid(pid[k], NULL, 0);
	if (WIFEXITED(status))
		sim_fatal("--procs: process %d of %d stopped with status %d", which + 1, procs, WEXITSTATUS(status));
	sim_fatal("--procs: process %d of %d stopped by signal %d", which + 1, procs, WTERMSIG(status));
}

/* Reads child k's next item into slot (items below taken are done); 0
 * at the end of its pipe. */
static int receive(int fd, uint64_t count, uint64_t taken, struct item_head *slot_head, void **slot, int k)
{
	struct item_head h;
	int r = read_all(fd, &h, sizeof(h));
	if (r == 0)
		return 0;
	if (r < 0 || h.i >= count || h.i < taken || slot[h.i] || h.n > ITEM_MAX_BYTES)
		sim_fatal("--procs: process %d sent a malformed item", k + 1);
	void *p = malloc(h.n ? h.n : 1);
	if (!p)
		sim_fatal("--procs: no memory for an item");
	if (read_all(fd, p, h.n) != 1 && h.n)
		sim_fatal("--procs: process %d sent an item cut short", k + 1);
	slot[h.i] = p;
	slot_head[h.i] = h;
	return 1;
}

/* See sim_procs.h. */
void sim_procs_run(uint64_t count, int procs, sim_procs_make make, sim_procs_take take, void *ctx)
{
	if (procs <= 1 || count <= 1) {
		for (uint64_t i = 0; i < count; i++) {
			const void *bytes;
			size_t n = make(i, ctx, &bytes);
			take(i, bytes, n, ctx);
		}
		return;
	}
	uint64_t *next = mmap(NULL, sizeof(*next), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	void **slot = calloc(count, sizeof(*slot));
	struct item_head *head = calloc(count, sizeof(*head));
	if (next == MAP_FAILED || !slot || !head)
		sim_fatal("--procs: no memory for %llu items", (unsigned long long)count);
	*next = 0;
	struct pollfd pfd[SIM_PROCS_MAX];
	pid_t pid[SIM_PROCS_MAX];
	fflush(stdout);
	fflush(stderr);
	for (int k = 0; k < procs; k++) {
		int fds[2];
		if (pipe(fds))
			sim_fatal("--procs: pipe: %s", strerror(errno));
		pid[k] = fork();
		if (pid[k] < 0)
			sim_fatal("--procs: fork: %s", strerror(errno));
		if (pid[k] == 0) {
			close(fds[0]);
			child(fds[1], next, count, make, ctx);
		}
		close(fds[1]);
		pfd[k] = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	}
	uint64_t taken = 0;
	for (int open = procs; open > 0;) {
		if (poll(pfd, (nfds_t)procs, -1) < 0) {
			if (errno == EINTR)
				continue;
			sim_fatal("--procs: poll: %s", strerror(errno));
		}
		for (int k = 0; k < procs; k++) {
			if (pfd[k].fd < 0 || !pfd[k].revents)
				continue;
			if (!receive(pfd[k].fd, count, taken, head, slot, k)) {
				int status;
				close(pfd[k].fd);
				pfd[k].fd = -1;
				open--;
				waitpid(pid[k], &status, 0);
				pid[k] = 0;
				if (!WIFEXITED(status) || WEXITSTATUS(status))
					stop_all(pid, procs, k, status);
				continue;
			}
			for (; taken < count && slot[taken]; taken++) {
				take(taken, slot[taken], head[taken].n, ctx);
				free(slot[taken]);
			}
		}
	}
	if (taken < count)
		sim_fatal("--procs: item %llu never came", (unsigned long long)taken);
	free(slot);
	free(head);
	munmap(next, sizeof(*next));
}
