/* SPDX-License-Identifier: BSD-2-Clause */
/* bench_out.c — the report callback and fixed-point number writers (see bench_out.h). */
#include <bench/bench_out.h>
#include <bench/bench_stats.h>

void bench_printf(const struct bench_out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	o->vprintf(o->arg, fmt, ap);
	va_end(ap);
}

int bench_put_fixed(struct strbuf *sb, int64_t v, int decimals)
{
	if (decimals < 0 || decimals > 18) {
		sb->full = 1;
		return -1;
	}
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t scale = 1;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	char frac[18];
	uint64_t f = mag % scale;
	for (int i = decimals - 1; i >= 0; i--) {
		frac[i] = (char)('0' + f % 10);
		f /= 10;
	}
	size_t len = sb->len;
	int rc = strbuf_printf(sb, "%s%llu", v < 0 ? "-" : "", (unsigned long long)(mag / scale));
	if (!rc && decimals)
		rc = strbuf_putc(sb, '.') || strbuf_put(sb, frac, (size_t)decimals) ? -1 : 0;
	if (rc) {   /* all or nothing */
		sb->len = len;
		sb->buf[len] = 0;
	}
	return rc;
}

int bench_put_pct(struct strbuf *sb, int64_t v)
{
	if (v == BENCH_NA)
		return strbuf_puts(sb, "-");
	char tmp[32];
	struct strbuf t;
	strbuf_init(&t, tmp, sizeof(tmp));
	bench_put_fixed(&t, v, 2);
	strbuf_putc(&t, '%');
	return strbuf_puts(sb, tmp);
}

int bench_put_p4(struct strbuf *sb, uint64_t p)
{
	uint64_t p4 = (p + BENCH_P_ONE / 20000) / (BENCH_P_ONE / 10000);   /* 10^-4, rounded half up */
	if (p4 == 0)
		return strbuf_puts(sb, "<0.0001");
	char tmp[32];
	struct strbuf t;
	strbuf_init(&t, tmp, sizeof(tmp));
	bench_put_fixed(&t, (int64_t)p4, 4);
	return strbuf_puts(sb, tmp);
}
