/* SPDX-License-Identifier: BSD-2-Clause */
/* log.c — the loader's messages. Everything goes to ConOut, which OVMF (and
 * most firmware with a console redirection setting) mirrors to the serial
 * port, so a headless QEMU run shows every message on -serial. */
#include <boot/loader.h>

/* Print one prefixed line. Boot services only; single-threaded. */
static void log_line(const CHAR16 *prefix, const CHAR16 *fmt, va_list ap)
{
	Print(L"mosaic-loader: %s", prefix);
	VPrint(fmt, ap);
	Print(L"\n");
}

/* A progress message. Boot services only. */
void log_info(const CHAR16 *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(L"", fmt, ap);
	va_end(ap);
}

/* Something unusual that does not stop the boot. Boot services only. */
void log_warn(const CHAR16 *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(L"warning: ", fmt, ap);
	va_end(ap);
}

/* The reason the boot stops; the caller returns an error status. Boot
 * services only. */
void log_error(const CHAR16 *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(L"error: ", fmt, ap);
	va_end(ap);
}
