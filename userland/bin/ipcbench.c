/* SPDX-License-Identifier: BSD-2-Clause */
/* ipcbench — IPC round trips between two processes:
 *   ipcbench [--rounds N]
 * For the server on the same CPU as the client, then on another CPU, it
 * starts a server process (this program as `ipcbench serve NAME CPU`),
 * makes N calls (label and four words in registers, plus a 64-byte
 * buffer each way) and prints the latency percentiles and the calls per
 * second. Then it checks that a server dying wakes its clients with
 * ERR_DEAD: once while the client's call waits for a reply (the server
 * received it and never answers), once while it waits to be received
 * (the server never receives). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mosaic.h>

#define WARMUP 50
#define READY_NS (10ull * 1000000000ull)
#define CALL_NS (10ull * 1000000000ull)
#define KILL_DELAY_NS (200ull * 1000000ull)
#define PAYLOAD 64

/* The server: pin, publish, then echo every call (label + 1, words back,
 * buffer back) or, in mode hold / deaf, take one call and never answer /
 * never receive. */
static int serve(const char *mode, const char *name, const char *cpu_s)
{
	int64_t cpu;
	if (parse_int(cpu_s, 0, 255, &cpu) || pin_to_cpu((unsigned)cpu) < 0)
		return 2;
	int h = ep_create();
	if (h < 0 || svc_publish(h, name) < 0)
		return 3;
	ready();
	if (strcmp(mode, "deaf") == 0)
		for (;;)
			sleep_ns(TIMEOUT_MAX_NS);
	char buf[PAYLOAD];
	struct ipc_msg m = { .rbuf = buf, .rcap = sizeof(buf) };
	int rc = ipc_recv(h, &m, IPC_FOREVER);
	if (strcmp(mode, "hold") == 0)
		for (;;)
			sleep_ns(TIMEOUT_MAX_NS);
	for (;;) {
		if (rc == 0) {
			m.label++;
			m.buf = buf;
			m.len = m.rlen;
		}
		m.rbuf = buf;
		m.rcap = sizeof(buf);
		rc = ipc_reply_recv(h, &m, IPC_FOREVER);
	}
}

/* Starts a server in mode on cpu; its pid, and a send handle in *h. */
static int server_start(const char *mode, unsigned cpu, int *h)
{
	char name[SVC_NAME_MAX], cpu_s[8];
	snprintf(name, sizeof(name), "ipcbench.%d.%s", getpid(), mode);
	snprintf(cpu_s, sizeof(cpu_s), "%u", cpu);
	const char *args[] = { "ipcbench", "serve", mode, name, cpu_s };
	int pid = spawn("ipcbench", 5, args, NULL, NULL, 0, SPAWN_WAIT_READY, READY_NS);
	if (pid < 0) {
		printf("ipcbench: cannot start the server: %s\n", strerror(pid));
		return pid;
	}
	*h = svc_lookup(name);
	if (*h < 0) {
		printf("ipcbench: server %s not found: %s\n", name, strerror(*h));
		kill(pid);
		wait(pid, NULL, IPC_FOREVER);
		return *h;
	}
	return pid;
}

static void server_stop(int pid, int h)
{
	kill(pid);
	wait(pid, NULL, IPC_FOREVER);
	handle_close(h);
}

/* One series of rounds with the server on server_cpu; 0 if every call
 * came back right. */
static int series(const char *what, unsigned server_cpu, uint64_t rounds, uint64_t *lat)
{
	int h, pid = server_start("echo", server_cpu, &h);
	if (pid < 0)
		return 1;
	char out[PAYLOAD], in[PAYLOAD];
	memset(out, 0x5a, sizeof(out));
	int bad = 0;
	uint64_t t0 = 0;
	for (uint64_t i = 0; i < rounds + WARMUP && !bad; i++) {
		if (i == WARMUP)
			t0 = time_ns();
		struct ipc_msg m = { .label = i, .w = { i, ~i, 3, 4 }, .buf = out, .len = sizeof(out),
				     .rbuf = in, .rcap = sizeof(in) };
		uint64_t s = time_ns();
		int rc = ipc_call(h, &m, CALL_NS);
		uint64_t e = time_ns();
		if (rc || m.label != i + 1 || m.w[0] != i || m.w[1] != ~i || m.rlen != sizeof(in) ||
		    memcmp(in, out, sizeof(in))) {
			printf("ipcbench: %s: round %lu: %s, label %lu\n", what, i, strerror(rc), m.label);
			bad = 1;
		}
		if (i >= WARMUP)
			lat[i - WARMUP] = e - s;
	}
	uint64_t span = time_ns() - t0;
	server_stop(pid, h);
	if (bad)
		return 1;
	sort_u64(lat, rounds);
	printf("ipcbench: %-10s (client cpu 0, server cpu %u): %lu calls, round trip us p50 %lu.%03lu "
	       "p90 %lu.%03lu p99 %lu.%03lu max %lu.%03lu; %lu calls/s\n", what, server_cpu, rounds,
	       lat[rounds / 2] / 1000, lat[rounds / 2] % 1000, lat[rounds * 9 / 10] / 1000,
	       lat[rounds * 9 / 10] % 1000, lat[rounds * 99 / 100] / 1000,
	       lat[rounds * 99 / 100] % 1000, lat[rounds - 1] / 1000, lat[rounds - 1] % 1000,
	       span ? muldiv64(rounds, 1000000000ull, span) : 0);
	return 0;
}

static int victim;

/* Kills the victim a little after the call below began to wait. */
static uint64_t killer(void *arg)
{
	(void)arg;
	sleep_ns(KILL_DELAY_NS);
	return (uint64_t)(int64_t)kill(victim);
}

/* A call to a server in mode that dies meanwhile must fail with ERR_DEAD. */
static int dead_check(const char *mode)
{
	int h;
	victim = server_start(mode, 0, &h);
	if (victim < 0)
		return 1;
	int tid = thread_create(killer, NULL, 0);
	struct ipc_msg m = { .label = 7 };
	int rc = tid < 0 ? tid : ipc_call(h, &m, CALL_NS);
	if (tid >= 0)
		thread_join(tid, NULL, IPC_FOREVER);
	wait(victim, NULL, IPC_FOREVER);
	handle_close(h);
	int ok = rc == ERR_DEAD;
	printf("ipcbench: server killed while a call waits %s: %s (%s)\n",
	       strcmp(mode, "hold") == 0 ? "for its reply" : "to be received", strerror(rc),
	       ok ? "ok" : "WRONG, expected ERR_DEAD");
	return !ok;
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2], argv[3], argv[4]);
	uint64_t rounds = 2000;
	int64_t v;
	if (argc == 3 && strcmp(argv[1], "--rounds") == 0 && !parse_int(argv[2], 100, 1000000, &v))
		rounds = (uint64_t)v;
	else if (argc != 1) {
		printf("usage: ipcbench [--rounds N]   (N: 100..1000000)\n");
		return 2;
	}
	uint64_t *lat = malloc(rounds * sizeof(*lat));
	if (!lat || pin_to_cpu(0) < 0) {
		printf("ipcbench: no memory or cannot pin to cpu 0\n");
		return 1;
	}
	struct cpu_info ci;
	int ncpu = cpu_info(0, &ci), bad = series("same cpu", 0, rounds, lat);
	if (ncpu > 1)
		bad |= series("cross cpu", 1, rounds, lat);
	bad |= dead_check("hold");
	bad |= dead_check("deaf");
	free(lat);
	printf("ipcbench: check %s\n", bad ? "FAILED" : "ok");
	return bad;
}
