/* printk.c — formatted output to every console. */
#include <printk.h>
#include <console.h>

/* Format into a stack buffer and write it out in one piece, so lines from
 * different contexts do not interleave mid-line. Longer output is cut at
 * 512 bytes with a marker. Takes the console lock (inside console_write). */
void vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf)) {
		console_write(buf, sizeof(buf) - 1);
		console_write("[...]\n", 6);
		return;
	}
	console_write(buf, (size_t)n);
}

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}
